"""The Django admin for staff: rooms are read-only and can be closed; games are read-only records."""

from __future__ import annotations

import pytest

from games.models import Game, GameStatus
from lobby.models import Room
from lobby.play.moves import game_drop
from tests.ratings.ratingkit import at, make_table

pytestmark = pytest.mark.django_db

ROOMS = "/admin/lobby/room/"
GAMES = "/admin/games/game/"


def room_pk(table) -> str:
    return str(Room.objects.get(code=table.code).pk)


def test_staff_close_rooms_and_the_game_being_played_is_abandoned(admin_client):
    table = make_table()
    game = table.start(now=at())
    idle = make_table(names=("Cy", "Di"))
    page = admin_client.get(ROOMS)
    assert page.status_code == 200 and table.code.encode() in page.content
    assert b"#1 playing" in page.content
    response = admin_client.post(ROOMS, {"action": "close_rooms", "_selected_action": [room_pk(table)]},
                                 follow=True)
    assert f"Closed 1 room(s): {table.code}".encode() in response.content
    game.refresh_from_db()
    assert (game.status, game.reason) == (GameStatus.ABANDONED, "closed")
    assert Room.objects.get(code=table.code).closed_at is not None
    assert Room.objects.get(code=idle.code).closed_at is None


def test_rooms_cannot_be_added_changed_or_deleted_in_the_admin(admin_client):
    table = make_table()
    url = f"{ROOMS}{room_pk(table)}/change/"
    assert admin_client.get(url).status_code == 200  # a read-only view
    assert admin_client.post(url, {"code": "HACKED"}).status_code == 403
    assert admin_client.get(f"{ROOMS}add/").status_code == 403
    assert admin_client.post(f"{ROOMS}{room_pk(table)}/delete/", {"post": "yes"}).status_code == 403
    assert Room.objects.filter(code=table.code).exists()


def test_a_game_is_a_read_only_record_with_its_moves(admin_client):
    table = make_table()
    game = table.start(now=at())
    red = table.seat_player(game.red_seat)
    game_drop(code=table.code, player=red, peg="c3", ply=0, now=at(1))
    url = f"{GAMES}{game.pk}/change/"
    page = admin_client.get(url)
    assert page.status_code == 200
    assert b"c3" in page.content and table.code.encode() in page.content
    assert admin_client.post(url, {"status": "won"}).status_code == 403
    assert admin_client.get(f"{GAMES}add/").status_code == 403
    assert admin_client.post(f"{GAMES}{game.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Game.objects.get(pk=game.pk).status == GameStatus.PLAYING
    listing = admin_client.get(GAMES, {"status__exact": "playing"})
    assert str(game.pk).encode() in listing.content
