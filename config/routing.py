"""Websocket routes. Any other path is refused with close code 4404 (never a 500 and a traceback)."""

from django.urls import path, re_path

from lobby.realtime.lobby import LobbyConsumer
from lobby.realtime.room import RoomConsumer, UnknownPathConsumer
from tournaments.realtime.socket import TournamentConsumer

websocket_urlpatterns = [
    path("ws/rooms/<str:code>/", RoomConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/tournaments/<int:arena_id>/", TournamentConsumer.as_asgi()),
    re_path(r"", UnknownPathConsumer.as_asgi()),  # an empty pattern matches every path: the catch-all
]
