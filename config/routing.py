"""Websocket routes."""

from django.urls import path

from lobby.consumers import RoomConsumer
from lobby.lobby_consumer import LobbyConsumer

websocket_urlpatterns = [
    path("ws/rooms/<str:code>/", RoomConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
]
