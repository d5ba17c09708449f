"""Test kit for the games layer's services: a game begun in a room of its own, as the layer above would
begin it (the room is the lobby's, the game row the games layer's)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from games import services as games
from games.engine import Peg
from games.models import Game
from lobby.rooms.services import room_create
from players.models import Player
from players.services import player_create

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def two_players() -> tuple[Player, Player]:
    return player_create(name="Ann", now=T0), player_create(name="Bob", now=T0)


def begun(*, ranked: bool = False, cpu: bool = False, **rules: Any) -> Game:
    """A game written by ``games.services.game_begin``: Ann Red in seat 1, Bob (or the CPU) Yellow in seat 2."""
    ann, bob = two_players()
    room = room_create(host=ann, rules={"ranked": ranked}, now=T0)
    game = games.game_new(room_id=room.pk, number=1, red_seat=1, red_player_id=ann.pk,
                          yellow_player_id=None if cpu else bob.pk, red_cpu=False, yellow_cpu=cpu, cpu_level=1,
                          ranked=ranked, turn_seconds=rules.get("turn_seconds"), now=T0,
                          days_per_move=rules.get("days_per_move"))
    games.game_begin(game)
    return game


def move(game: Game, peg: str, *, now: datetime = T0, cpu_reason: str = "") -> games.Played:
    """The seat to move plays ``peg`` (in memory, then written), as the rooms' locked path does."""
    seat = game.to_move_seat
    assert seat is not None
    played = games.game_move(game, Peg.from_name(peg), seat=seat, cpu_reason=cpu_reason, now=now)
    games.game_move_write(game, played)
    return played


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)
