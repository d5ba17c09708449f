"""Moderation's routes: reporting a player (REST) and the warning page."""

from django.urls import path

from moderation import views

urlpatterns = [
    path("api/reports", views.ReportsView.as_view(), name="reports"),
    path("moderation/warning", views.warning, name="moderation-warning"),
]
