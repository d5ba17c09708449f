"""The games' routes, included under /api/ by config.urls: a game, its analysis, a player's page."""

from django.urls import path

from games.views import GameAnalysisView, GameDetailView, PlayerDetailView

urlpatterns = [
    path("games/<str:game_id>", GameDetailView.as_view(), name="game"),
    path("games/<str:game_id>/analysis", GameAnalysisView.as_view(), name="game-analysis"),
    path("players/<str:player_id>", PlayerDetailView.as_view(), name="player"),
]
