"""A room for two players, both seated, their first game started: how every pairing ends.

Quick pairing (:mod:`lobby.pairing.seeks`), arenas (:mod:`tournaments.waves`) and challenges
(:mod:`bots.challenges`) decide who plays whom, each in its own way and under its own locks; then each
calls :func:`room_for_two` with the game's :class:`GameSettings`. The room is an ordinary room (Red
hosts it in seat 1, Yellow sits in seat 2) and the game an ordinary game: watchable, with its chat and
analysis, rated when the settings say so. A caller's settings (a turn timer or a correspondence game's
days per move, ranked) are :class:`GameSettings`, the one place they become the room's rules.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from django.db import transaction

from games.models import Game
from lobby.models import Room
from lobby.play.moves import game_start
from lobby.rooms.services import room_create
from players.models import Player

# The first player's colour: Red or Yellow, or a coin decides.
Colour = Literal["red", "yellow", "random"]


@dataclass(frozen=True, slots=True)
class GameSettings:
    """What the two play with, chosen by whoever paired them.

    Attributes:
        turn_seconds: the turn timer (None, 30 or 60 seconds).
        ranked: whether the game is rated (a game with a CPU seat never is).
        alternate_first: whether the room's next game swaps who starts (an arena's room plays one game).
        tournament_id: the arena the game is played for (its room's games have no "again").
        days_per_move: a correspondence game's days per move (None: a live game).
    """

    turn_seconds: int | None
    ranked: bool
    alternate_first: bool = True
    tournament_id: int | None = None
    days_per_move: int | None = None

    def rules(self) -> dict[str, Any]:
        """The room's house rules (the rest are the defaults)."""
        return {"turn_seconds": self.turn_seconds, "days_per_move": self.days_per_move, "ranked": self.ranked,
                "alternate_first": self.alternate_first}


@dataclass(frozen=True, slots=True)
class TwoSeated:
    """The room made for two, its first game, and who plays which colour."""

    room: Room
    game: Game
    red: Player
    yellow: Player


def room_for_two(*, first: Player, second: Player, settings: GameSettings, now: datetime,
                 colour: Colour = "random") -> TwoSeated:
    """A room with Red hosting in seat 1 and Yellow in seat 2, its first game started with ``settings``;
    ``colour`` is ``first``'s (``random``: a coin decides).

    Call it in the transaction that decided the pair (every caller holds its own locks there), so the room,
    the seats and the game are written with the caller's rows or not at all: a refusal rolls them all back
    with it. The statements are those of :func:`lobby.rooms.services.room_create` and
    :func:`lobby.play.moves.game_start`, nothing more.

    Raises:
        Refused: bad_rules (settings out of range), banned (Red is banned).
    """
    first_red = colour == "red" or (colour == "random" and bool(secrets.randbelow(2)))
    red, yellow = (first, second) if first_red else (second, first)
    assert transaction.get_connection().in_atomic_block, "room_for_two runs in the caller's transaction"
    room = room_create(host=red, guest=yellow, rules=settings.rules(), now=now)
    game = game_start(code=room.code, player=red, now=now, tournament_id=settings.tournament_id)
    return TwoSeated(room=room, game=game, red=red, yellow=yellow)
