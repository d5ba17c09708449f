"""A room for two players, both seated, their first game started: how every pairing ends.

Quick pairing (:mod:`lobby.pairing.seeks`), arenas (:mod:`tournaments.waves`) and challenges
(:mod:`bots.challenges`) decide who plays whom, each in its own way and under its own locks; then each
calls :func:`room_for_two` with the game's :class:`GameSettings` (an arena's wave, many pairs at once:
:func:`rooms_for_two`, the same rows in a few statements for all of them). The room is an ordinary room
(Red hosts it in seat 1, Yellow sits in seat 2) and the game an ordinary game: watchable, with its chat
and analysis, rated when the settings say so. A caller's settings (a turn timer or a correspondence game's
days per move, ranked) are :class:`GameSettings`, the one place they become the room's rules.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from django.db import IntegrityError, transaction

from games import endings
from games import services as games
from games.models import Game
from lobby import events, timers
from lobby.models import Room, Seat, new_room_code
from lobby.play.moves import game_start
from lobby.rooms.selectors import live_seat_ratings
from lobby.rooms.services import room_create, room_create_check
from players.models import Player
from ratings.selectors import ratings_of

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


# Room codes drawn again at most this many times when a batch meets one in use (each draw: 32^6 codes).
CODE_DRAWS = 10


def rooms_for_two(pairs: Sequence[tuple[Player, Player]], *, settings: GameSettings, now: datetime) -> list[TwoSeated]:
    """:func:`room_for_two` for many pairs at once, each ``(red, yellow)``, in the caller's transaction: one
    INSERT for all their rooms, one for their seats, one for their games (and one read of the ratings when
    the games count), where each room for two takes about a dozen statements.

    The rows are those :func:`room_for_two` writes: the room hosted by Red in seat 1 and Yellow in seat 2,
    both disconnected until they connect, at version 2 (made, then its game started), its first game
    started with ``settings`` and its next due time. Nobody is in the rooms yet, so no snapshot is sent; the
    lobby's lists are told once.

    Raises:
        Refused: bad_rules (settings out of range), banned (a Red is banned: the caller leaves banned
            players out).
    """
    assert transaction.get_connection().in_atomic_block, "rooms_for_two runs in the caller's transaction"
    house = room_create_check(host=None, rules=settings.rules())
    for red, _ in pairs:
        room_create_check(host=red, rules={})
    rooms = _rooms_inserted([Room(host=red, created_at=now, last_activity_at=now, made_for_two=True, version=2,
                                  open_since=now if house.open else None, **house.as_dict()) for red, _ in pairs])
    seats = [[Seat(room=room, number=1, player=red, disconnected_at=now),
              Seat(room=room, number=2, player=yellow, disconnected_at=now)]
             for room, (red, yellow) in zip(rooms, pairs, strict=True)]
    Seat.objects.bulk_create([seat for two in seats for seat in two])
    ranked = endings.game_is_ranked(ranked=house.ranked, red_cpu=False, yellow_cpu=False)
    ratings = ratings_of([p.pk for pair in pairs for p in pair], now=now) if ranked else {}
    made = []
    for room, two, (red, yellow) in zip(rooms, seats, pairs, strict=True):
        stakes = live_seat_ratings(two, now=now, ratings=ratings) if ranked else {}
        game = games.game_new(
            room_id=room.pk, number=1, red_seat=1, red_player_id=red.pk, yellow_player_id=yellow.pk, red_cpu=False,
            yellow_cpu=False, cpu_level=room.cpu_level, ranked=room.ranked, turn_seconds=room.turn_seconds,
            days_per_move=room.days_per_move, now=now, stakes={str(number): entry for number, entry in stakes.items()},
            tournament_id=settings.tournament_id)
        game.due_at = timers.due_time(game, timers.seat_states(room, seats=two))
        made.append(TwoSeated(room=room, game=game, red=red, yellow=yellow))
    games.games_begin([two.game for two in made])
    if any(two.game.due_at is not None and two.game.due_at <= now for two in made):
        events.wake_on_commit()
    events.lists_changed_on_commit()
    return made


def _rooms_inserted(rooms: list[Room]) -> list[Room]:
    """``rooms`` written in one INSERT, each under a fresh code (all drawn again if one is in use)."""
    for _ in range(CODE_DRAWS):
        for room in rooms:
            room.code = new_room_code()
        try:
            with transaction.atomic():
                return Room.objects.bulk_create(rooms)
        except IntegrityError:
            continue
    raise RuntimeError("could not find free room codes")
