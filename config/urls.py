"""HTTP routes: the REST API under /api/, the web pages at the root."""

from django.urls import include, path

from config.health import health
from games.views import GameDetailView
from lobby.views import RoomDetailView, RoomsView, SessionView

urlpatterns = [
    path("api/health", health, name="health"),
    path("api/session", SessionView.as_view(), name="session"),
    path("api/rooms", RoomsView.as_view(), name="rooms"),
    path("api/rooms/<str:code>", RoomDetailView.as_view(), name="room"),
    path("api/games/<str:game_id>", GameDetailView.as_view(), name="game"),
    path("", include("frontend.urls")),
]
