"""Websocket routes. Any other path is refused with close code 4404 (never a 500 and a traceback).

A room's path takes only what could be a room code (its letters and digits, in either case, at its
length): anything else (a NUL, markup, a code of 30 characters) is no room, refused with 4404 by the
catch-all before it reaches the database or the channel layer, whose group names it could break (which
would close the socket with 4503, telling the page to retry for ever).
"""

from django.urls import path, re_path

from arcade.socket import ArcadeConsumer
from lobby.models import ROOM_CODE_LENGTH
from lobby.realtime.lobby import LobbyConsumer
from lobby.realtime.player import PlayerConsumer
from lobby.realtime.room import RoomConsumer, UnknownPathConsumer
from tournaments.realtime.socket import TournamentConsumer

websocket_urlpatterns = [
    re_path(rf"^ws/rooms/(?P<code>[0-9A-Za-z]{{{ROOM_CODE_LENGTH}}})/$", RoomConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/player/", PlayerConsumer.as_asgi()),
    path("ws/tournaments/<int:arena_id>/", TournamentConsumer.as_asgi()),
    path("ws/arcade/", ArcadeConsumer.as_asgi()),
    re_path(r"", UnknownPathConsumer.as_asgi()),  # an empty pattern matches every path: the catch-all
]
