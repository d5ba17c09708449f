"""Timers: when a game's next automatic action falls due, and why (a CPU seat's move, a CPU stand-in for
an away seat, a turn timer running out, or the grace period of a disconnected seat ending), and the
leases that let one process at a time act on it.

``next_due`` is pure (it takes the seats' states and the game's times), and so is ``due_time``, the one
due time of a game; ``reschedule`` reads the seats from the database (or takes the rows its caller holds)
and writes ``Game.due_at``. Services call ``reschedule`` after every change they make; a game begun, a
move and a takeback have their due time stored on the game in memory between the games layer's two steps
(``games.services``: the change in memory, then its write), so it is written in the same statement, and
``wake_if_due`` tells this process's ticker when it falls due. The ticker of each process
(:mod:`lobby.realtime.ticker`) leases the games that are due (``games_claim_due``) and has
:mod:`lobby.play.automatic` act on them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime, timedelta
from uuid import UUID

from django.conf import settings
from django.db.models import Q

from games.models import Game, GameStatus
from games.selectors import room_latest_game
from lobby import events
from lobby.models import Room, Seat


class DueReason(enum.StrEnum):
    CPU_SEAT = "seat"  # the CPU plays this seat
    AWAY = "away"  # the CPU stands in for an absent player
    TIMEOUT = "timeout"  # the turn timer ran out
    GRACE = "grace"  # a disconnected seat's grace period ended: it becomes away
    FLAG = "flag"  # a correspondence game's days per move ran out: the player to move loses on time


@dataclass(frozen=True, slots=True)
class SeatState:
    """What scheduling needs to know of a seat."""

    number: int
    cpu: bool
    away: bool
    connected: bool
    disconnected_at: datetime | None


@dataclass(frozen=True, slots=True)
class Due:
    at: datetime
    reason: DueReason


def next_due(
    *, to_move: SeatState, other: SeatState, turn_started_at: datetime, deadline: datetime | None, grace: timedelta,
    correspondence: bool = False,
) -> Due | None:
    """The next automatic action of a game being played, or None when it simply waits.

    - A CPU seat moves at once. Against the CPU alone, nothing else ever moves for the person.
    - A correspondence game: being away is normal, so nobody is stood in for; when the deadline passes
      the player to move loses on time (``FLAG``), connected or not.
    - While neither seated person is connected, the game waits: the CPU does not play a game out
      with nobody there.
    - An away seat is played by the CPU at once.
    - Otherwise the earlier of the turn timer and, for a disconnected seat, the end of its grace
      period. Grace counts only during that seat's turn (from the later of the turn's start and
      the disconnection), so a player who drops while waiting is not charged the opponent's time.
    """
    if to_move.cpu:
        return Due(turn_started_at, DueReason.CPU_SEAT)
    if correspondence:
        return None if deadline is None else Due(deadline, DueReason.FLAG)
    solo = other.cpu
    if not solo and not (to_move.connected or other.connected):
        return None
    if to_move.away and not solo:
        return Due(turn_started_at, DueReason.AWAY)
    candidates: list[Due] = []
    if deadline is not None and (to_move.connected or not solo):
        candidates.append(Due(deadline, DueReason.TIMEOUT))
    if not to_move.connected and not solo:
        start = max(turn_started_at, to_move.disconnected_at or turn_started_at)
        candidates.append(Due(start + grace, DueReason.GRACE))
    return min(candidates, key=lambda due: due.at) if candidates else None


# --- reading and writing the database ---------------------------------------------------------------
def grace_period() -> timedelta:
    return timedelta(seconds=settings.DISCONNECT_GRACE_SECONDS)


def seat_state(seat: Seat) -> SeatState:
    """What scheduling needs of a seat row (its presence is on the row: no look at the connections)."""
    return SeatState(
        number=seat.number,
        cpu=seat.cpu,
        away=seat.away,
        connected=seat.is_connected,
        disconnected_at=seat.disconnected_at,
    )


def seat_states(room: Room, *, seats: list[Seat] | None = None) -> dict[int, SeatState]:
    """The room's seats as scheduling sees them: from ``seats`` if the caller holds them, else read."""
    rows = seats if seats is not None else list(Seat.objects.filter(room=room))
    return {seat.number: seat_state(seat) for seat in rows}


def due_for(game: Game, seats: dict[int, SeatState]) -> Due | None:
    to_move = game.to_move_seat
    if to_move is None:
        return None
    return next_due(
        to_move=seats[to_move],
        other=seats[3 - to_move],
        turn_started_at=game.turn_started_at,
        deadline=game.deadline,
        grace=grace_period(),
        correspondence=game.days_per_move is not None,
    )


def due_time(game: Game, seats: dict[int, SeatState]) -> datetime | None:
    """When ``game``'s next automatic action falls due (None: nothing pending); the caller stores it."""
    due = due_for(game, seats)
    return due.at if due is not None else None


def wake_if_due(game: Game, *, now: datetime) -> None:
    """The ticker of this process looks at the deadlines when ``game``'s stored due time comes (once the
    transaction commits, at once outside one): at once if it has come already (a CPU seat's turn, an away
    seat's), else then, unless it looks before anyway (the signal then wakes nothing)."""
    if game.due_at is not None:
        events.wake_on_commit(max(game.due_at, now))


def reschedule(
    room: Room, *, now: datetime, game: Game | None = None, seats: list[Seat] | None = None
) -> None:
    """Recompute and store the current game's ``due_at``.

    ``game`` and ``seats``: the room's current game and seat rows, when the caller holds them already
    (else they are read).
    """
    game = game if game is not None else room_latest_game(room.pk)
    if game is None or game.status != GameStatus.PLAYING:
        return
    game_set_due(game, due_time(game, seat_states(room, seats=seats)))
    wake_if_due(game, now=now)


# --- leases: one process at a time acts on a due game ------------------------------------------------------
def game_set_due(game: Game, at: datetime | None) -> None:
    """Store when the game's next automatic action falls due (None: nothing pending)."""
    if game.due_at != at:
        game.due_at = at
        Game.objects.filter(pk=game.pk).update(due_at=at)


def game_release_lease(game_id: UUID | str) -> None:
    """Give up this process's lease on the game's automatic action."""
    Game.objects.filter(pk=game_id).update(lease_until=None)


@dataclass(frozen=True, slots=True)
class Looked:
    """One look at the deadlines: the games leased to this process now, and when the earliest other
    unleased deadline falls (None: none pending)."""

    claimed: list[str]
    next_at: datetime | None


def games_due(*, now: datetime, lease: timedelta, limit: int = 20) -> Looked:
    """Lease the games whose automatic action is due, so one process handles each, and say when the next
    unleased one falls due: one read of the earliest deadlines (the ticker's every tick), then an update
    for each game due."""
    free = Q(lease_until__isnull=True) | Q(lease_until__lt=now)
    earliest = Game.objects.filter(free, status=GameStatus.PLAYING, due_at__isnull=False).order_by("due_at")
    claimed: list[str] = []
    for pk, at in earliest.values_list("pk", "due_at")[:limit + 1]:
        if at is None or at > now or len(claimed) == limit:  # (never None: filtered out)
            return Looked(claimed, at)
        taken = Game.objects.filter(free, pk=pk, status=GameStatus.PLAYING, due_at__lte=now).update(
            lease_until=now + lease
        )
        if taken:
            claimed.append(str(pk))
    return Looked(claimed, None)


def games_claim_due(*, now: datetime, lease: timedelta, limit: int = 20) -> list[str]:
    """Lease the games whose automatic action is due, so one process handles each; returns their ids."""
    return games_due(now=now, lease=lease, limit=limit).claimed
