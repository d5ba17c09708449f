"""common.rows: the hot path's hand-written SQL reads rows back exactly as the ORM does."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from games.models import Game, Move
from games.selectors import room_latest_game
from lobby.models import Room, Seat
from lobby.play import moves as play
from lobby.rooms.selectors import room_seats
from lobby.rooms.services import room_create, room_lock, room_sit
from players.services import player_create

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def fields(instance) -> dict:
    return {field.attname: getattr(instance, field.attname) for field in type(instance)._meta.concrete_fields}


@pytest.fixture
def room_with_a_game():
    ann = player_create(name="Ann", now=T0)
    bob = player_create(name="Bob", now=T0)
    room = room_create(host=ann, rules={"ranked": True, "turn_seconds": 30}, now=T0)
    room_sit(code=room.code, player=bob, now=T0)
    play.game_start(code=room.code, player=ann, now=T0)
    play.game_drop(code=room.code, player=ann, peg="b2", ply=0, now=T0)
    return Room.objects.get(pk=room.pk)


@pytest.mark.django_db
def test_seats_with_their_players_read_as_the_orm_reads_them(room_with_a_game):
    room = room_with_a_game
    expected = list(Seat.objects.filter(room=room).select_related("player").order_by("number"))
    seats = room_seats(room)
    assert [fields(s) for s in seats] == [fields(s) for s in expected]
    assert [fields(s.player) for s in seats] == [fields(s.player) for s in expected]
    assert all(isinstance(s.player.created_at, datetime) and s.player.created_at.tzinfo for s in seats)


@pytest.mark.django_db
def test_the_latest_game_reads_as_the_orm_reads_it(room_with_a_game):
    room = room_with_a_game
    game = room_latest_game(room.pk)
    expected = Game.objects.filter(room=room).order_by("-number").first()
    assert fields(game) == fields(expected)
    assert isinstance(game.stakes, dict) and game.record == "b2" and game.deadline is not None


@pytest.mark.django_db
def test_the_move_and_the_game_are_written_as_a_save_would(room_with_a_game):
    game = Game.objects.get(room=room_with_a_game)
    move = Move.objects.get(game=game)
    assert (move.ply, move.peg, move.seat, move.cpu, move.cpu_reason, move.played_at) == (0, "b2", 1, False, "", T0)
    assert (game.ply, game.record, game.turn_started_at, game.lease_until) == (1, "b2", T0, None)
    assert game.to_move_seat == 2 and game.deadline == datetime(2026, 12, 1, 12, 0, 30, tzinfo=UTC)


@pytest.mark.django_db
def test_locking_a_room_for_a_change_returns_it_with_the_new_version(room_with_a_game):
    before = Room.objects.get(pk=room_with_a_game.pk)
    later = datetime(2026, 12, 1, 12, 5, tzinfo=UTC)
    room = room_lock(before.code, changed_at=later)
    assert room.version == before.version + 1 and room.last_activity_at == later
    assert fields(room) == fields(Room.objects.get(pk=room.pk))
