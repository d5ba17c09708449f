"""Routes of the arcade, mounted under /api/ (docs/arcade.md, "The API")."""

from django.urls import path

from arcade.views import ModesView, RunActionView, RunMoveView, RunsView, RunView, ScoresView

urlpatterns = [
    path("arcade/modes", ModesView.as_view(), name="arcade-modes"),
    path("arcade/runs", RunsView.as_view(), name="arcade-runs"),
    path("arcade/runs/<str:run_id>", RunView.as_view(), name="arcade-run"),
    path("arcade/runs/<str:run_id>/move", RunMoveView.as_view(), name="arcade-run-move"),
    path("arcade/runs/<str:run_id>/undo", RunActionView.as_view(op="undo"), name="arcade-run-undo"),
    path("arcade/runs/<str:run_id>/continue", RunActionView.as_view(op="continue"), name="arcade-run-continue"),
    path("arcade/runs/<str:run_id>/end", RunActionView.as_view(op="end"), name="arcade-run-end"),
    path("arcade/scores", ScoresView.as_view(), name="arcade-scores"),
]
