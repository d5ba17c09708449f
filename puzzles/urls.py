"""Routes of puzzles, mounted under /api/ (the fixed names before the id)."""

from django.urls import path

from puzzles.views import PuzzleDailyView, PuzzleDetailView, PuzzleMoveView, PuzzleNextView, PuzzlesView

urlpatterns = [
    path("puzzles", PuzzlesView.as_view(), name="puzzles"),
    path("puzzles/next", PuzzleNextView.as_view(), name="puzzle-next"),
    path("puzzles/daily", PuzzleDailyView.as_view(), name="puzzle-daily"),
    path("puzzles/<str:puzzle_id>", PuzzleDetailView.as_view(), name="puzzle"),
    path("puzzles/<str:puzzle_id>/move", PuzzleMoveView.as_view(), name="puzzle-move"),
]
