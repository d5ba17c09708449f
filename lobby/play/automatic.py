"""The automatic moves: a CPU seat's move, a turn timer running out, the CPU standing in for an away seat.

The ticker of some process (:mod:`lobby.realtime.ticker`) leases a due game, asks :func:`game_due_job`
what the CPU must compute, computes it off the loop, and offers it to :func:`game_cpu_move`, which plays
it through :func:`lobby.play.moves.room_move` (the same path as a person's drop) only if the game is
still where the job found it: that is how each due action happens once."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction

from common import metrics
from games import endings
from games.engine import Peg
from games.models import GameStatus
from games.selectors import game_get
from lobby import events, timers
from lobby.play.moves import room_move
from lobby.rooms.selectors import current_game, room_seats
from lobby.rooms.services import room_code, room_lock, room_touch
from lobby.timers import DueReason

# Two timeouts in a row and a seat counts as away until its player acts again.
TIMEOUTS_BEFORE_AWAY = 2


# --- automatic actions: the CPU seat, timeouts, stand-ins --------------------------------------------
@dataclass(frozen=True, slots=True)
class CpuJob:
    """A move the CPU must compute: for ``seat`` of game ``game_id`` at ``ply``, from ``record``."""

    game_id: str
    code: str
    ply: int
    seat: int
    record: str
    level: int
    reason: DueReason


def game_due_job(*, game_id: str, now: datetime) -> CpuJob | None:
    """What the CPU must do for a leased game now. A grace period ending turns the seat away here, and
    a correspondence game's deadline ends the game on time here (the CPU has nothing to compute).

    Returns None (and releases the lease) when nothing is due any more, or nothing is left to compute.
    """
    with transaction.atomic():
        found = game_get(game_id)
        if found is None or found.status != GameStatus.PLAYING:
            return None
        room = room_lock(room_code(found.room_id))
        game = game_get(game_id)  # it may have changed before we held the room lock
        if game is None:
            return None
        due = timers.due_for(game, timers.seat_states(room))
        if due is None or due.at > now or game.to_move_seat is None:
            timers.game_release_lease(game.pk)
            timers.game_set_due(game, due.at if due else None)
            return None
        metrics.TICKER_LATENESS_SECONDS.labels(reason=str(due.reason)).observe((now - due.at).total_seconds())
        seat = game.to_move_seat
        if due.reason == DueReason.FLAG:
            endings.game_time_out(game, now=now)  # ends the lease with the game
            room_touch(room, now=now)
            return None
        if due.reason == DueReason.GRACE:
            room.seats.filter(number=seat).update(away=True)
            events.notice_on_commit(room.code, "away", seat)
            room_touch(room, now=now)
        return CpuJob(
            game_id=str(game.pk), code=room.code, ply=game.ply, seat=seat, record=game.record,
            level=game.cpu_level, reason=DueReason.AWAY if due.reason == DueReason.GRACE else due.reason,
        )


@metrics.MOVE_SERVICE_SECONDS.labels(service="cpu_move").time()
def game_cpu_move(*, job: CpuJob, peg: str, now: datetime) -> bool:
    """Play the CPU's move for ``job`` if the game is still where the job found it.

    Returns False (changing nothing but the lease) when the game moved on or the reason lapsed: the
    player moved first, came back, or the game ended. That is how each due action happens once.
    """
    with transaction.atomic():
        room = room_lock(job.code)
        game = current_game(room)
        if (game is None or str(game.pk) != job.game_id or game.status != GameStatus.PLAYING or game.ply != job.ply
                or game.record != job.record):  # a takeback and a move since may bring the ply back
            return False
        seats = room_seats(room)
        due = timers.due_for(game, timers.seat_states(room, seats=seats))
        still = due is not None and due.at <= now and (
            due.reason == job.reason or (job.reason == DueReason.AWAY and due.reason == DueReason.GRACE)
        )
        if not still:
            timers.game_release_lease(game.pk)
            timers.reschedule(room, now=now, game=game, seats=seats)
            return False
        seat = next(s for s in seats if s.number == job.seat)
        seat_changed = False
        if job.reason == DueReason.TIMEOUT:
            seat.timeouts_in_row += 1
            events.notice_on_commit(room.code, "timeout", seat.number)
            if seat.timeouts_in_row >= TIMEOUTS_BEFORE_AWAY and not seat.away:
                seat.away = seat_changed = True
                events.notice_on_commit(room.code, "away", seat.number)
            seat.save(update_fields=["timeouts_in_row", "away"])
        room.version += 1
        room.last_activity_at = now
        room.save(update_fields=["version", "last_activity_at"])
        room_move(room, seats, game, Peg.from_name(peg), seat=job.seat, cpu_reason=str(job.reason), now=now,
                  seat_changed=seat_changed)
        return True
