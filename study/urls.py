"""The study's routes, included under /api/ by config.urls: records, the analysis board, the explorer, a
player's games."""

from django.urls import path

from study.views import ExplorerView, GameRecordView, PlayerGamesView, RecordParseView, analysis_view, player_games_text

urlpatterns = [
    path("games/<str:game_id>/record", GameRecordView.as_view(), name="game-record"),
    path("analysis", analysis_view, name="analysis"),
    path("explorer", ExplorerView.as_view(), name="explorer"),
    path("records/parse", RecordParseView.as_view(), name="records-parse"),
    path("players/<str:player_id>/games", PlayerGamesView.as_view(), name="player-games"),
    path("players/<str:player_id>/games.txt", player_games_text, name="player-games-text"),
]
