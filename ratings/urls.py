"""Routes of ratings, mounted under /api/."""

from django.urls import path

from ratings.views import LeaderboardView, PlayerDetailView

urlpatterns = [
    path("ratings", LeaderboardView.as_view(), name="ratings"),
    path("players/<str:player_id>", PlayerDetailView.as_view(), name="player"),
]
