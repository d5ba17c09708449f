"""Routes of the arcade, mounted under /api/ (docs/arcade.md, "The API")."""

from django.urls import path

from arcade.views import (
    ModesView,
    RunContinueView,
    RunEndView,
    RunMoveView,
    RunsView,
    RunUndoView,
    RunView,
    ScoresView,
)

urlpatterns = [
    path("arcade/modes", ModesView.as_view(), name="arcade-modes"),
    path("arcade/runs", RunsView.as_view(), name="arcade-runs"),
    path("arcade/runs/<str:run_id>", RunView.as_view(), name="arcade-run"),
    path("arcade/runs/<str:run_id>/move", RunMoveView.as_view(), name="arcade-run-move"),
    path("arcade/runs/<str:run_id>/undo", RunUndoView.as_view(), name="arcade-run-undo"),
    path("arcade/runs/<str:run_id>/continue", RunContinueView.as_view(), name="arcade-run-continue"),
    path("arcade/runs/<str:run_id>/end", RunEndView.as_view(), name="arcade-run-end"),
    path("arcade/scores", ScoresView.as_view(), name="arcade-scores"),
]
