"""The arenas' routes, included under /api/ by config.urls."""

from django.urls import path

from tournaments.views import ArenaActionView, ArenaDetailView, ArenaGamesView, ArenasView

urlpatterns = [
    path("tournaments", ArenasView.as_view(), name="tournaments"),
    path("tournaments/<int:arena_id>", ArenaDetailView.as_view(), name="tournament"),
    path("tournaments/<int:arena_id>/games", ArenaGamesView.as_view(), name="tournament-games"),
    *(
        path(f"tournaments/<int:arena_id>/{action}", ArenaActionView.as_view(action=action),
             name=f"tournament-{action}")
        for action in ("join", "pause", "withdraw")
    ),
]
