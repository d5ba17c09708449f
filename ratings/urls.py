"""Routes of ratings, mounted under /api/."""

from django.urls import path

from ratings.views import LeaderboardView

urlpatterns = [
    path("ratings", LeaderboardView.as_view(), name="ratings"),
]
