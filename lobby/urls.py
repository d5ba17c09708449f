"""The lobby's routes, included under /api/ by config.urls: rooms, a seat, the live games, the friends list.
Included before the games' routes: ``games/live`` is taken before ``games/<game_id>``."""

from django.urls import path

from lobby.rooms.views import LiveGamesView, MyFollowingView, RoomDetailView, RoomsView, SeatView

urlpatterns = [
    path("rooms", RoomsView.as_view(), name="rooms"),
    path("rooms/<str:code>", RoomDetailView.as_view(), name="room"),
    path("rooms/<str:code>/seat", SeatView.as_view(), name="room-seat"),
    path("games/live", LiveGamesView.as_view(), name="games-live"),
    path("my/following", MyFollowingView.as_view(), name="my-following"),
]
