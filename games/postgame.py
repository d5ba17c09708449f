"""A finished game's post-game work, off the move's path: its rating, its analysis's queue, what the layers
above do inside that work's transaction (:data:`games.endings.POST_GAME`: the opening explorer), then, once
committed, :data:`games.endings.GAME_FINISHED`'s handlers (the bots' streams, the arenas' scores, the
room's new ratings, correspondence's notification).

The end itself (status, winner, line, reason) is written with the move that ended the game, together with
the marker ``Game.post_due`` (``games.endings.game_end``). Here each marked game is done in one transaction
of its own that locks the game's row (``SELECT ... FOR NO KEY UPDATE SKIP LOCKED`` on PostgreSQL: a game
another process is doing is skipped, not waited for, and rows referring to the game, such as the explorer's
catch-up command's, are not blocked by it, so the two never deadlock), does the work and clears the
marker. So the work is done exactly once, on any number of processes: a process killed in the middle
leaves its transaction rolled back and the marker set, and the next look of any process (at its start,
at the latest every :data:`LOOK_SECONDS`) does it; one that committed left no marker. The rating is also
idempotent on its own (``ratings.services.rating_apply_result``), as are the analysis's queue and the
explorer's learning.
A try that fails is rolled back and tried again :data:`RETRY` later (logged each time).

:class:`PostGameLoop` is the loop service (``live.runtime.LOOP_SERVICES``, registered by ``games.apps``)
that runs it, on a thread of its own so that no drop waits behind another game's end: woken when a game
ends in this process (:class:`games.endings.PostGameQueued`, once committed) and when the next marker falls
due (a retry). :func:`post_games_run` is the same work called directly (tests, commands).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING
from uuid import UUID

from django.db import transaction
from django.utils import timezone

from games.analyses import analysis_queue
from games.endings import GAME_FINISHED, POST_GAME, GameSettling, PostGameQueued, game_finished_of, game_result
from games.models import Game
from live.events import Signal
from live.offload import alone_drained, offload_alone
from live.periodic import WakerService
from ratings.services import rating_apply_result

if TYPE_CHECKING:
    from live.runtime import Runtime

log = logging.getLogger(__name__)

# A try that failed is tried again this much later.
RETRY = timedelta(seconds=60)
# An idle loop looks this often for work nobody told it of (a process that died before doing it).
LOOK_SECONDS = 30.0
BATCH = 50  # games read per look (a look runs until none is due)


def post_game_do(game_id: UUID, *, now: datetime) -> bool:
    """Do the post-game work of one game if it is still pending and no other process is doing it; whether
    this call did it. One transaction: the game's row locked, its rating (the instant of its end), its
    analysis queued, :data:`~games.endings.POST_GAME` told, the marker cleared; once committed,
    :data:`~games.endings.GAME_FINISHED`."""
    with transaction.atomic():
        game = (Game.objects.select_for_update(skip_locked=True, no_key=True, of=("self",))
                .select_related("red_player", "yellow_player").filter(pk=game_id, post_due__isnull=False).first())
        if game is None:
            return False
        at = game.finished_at or now
        result = game_result(game)
        if result is not None:
            rating_apply_result(result=result, now=at)
        analysis_queue(game, now=at)
        Game.objects.filter(pk=game.pk).update(post_due=None)
        game.post_due = None
        finished = game_finished_of(game)
        POST_GAME.emit(GameSettling(game=game, finished=finished))
        GAME_FINISHED.emit(finished)  # (deferred: once this transaction commits)
    return True


def _pending(*, limit: int = BATCH) -> list[tuple[UUID, datetime]]:
    """The first ``limit`` games with post-game work pending, with when each falls due, soonest first (one read,
    no lock)."""
    rows = Game.objects.filter(post_due__isnull=False).order_by("post_due").values_list("pk", "post_due")
    return [(game_id, at) for game_id, at in rows[:limit] if at is not None]


def post_games_due(*, now: datetime | None, limit: int = BATCH) -> list[UUID]:
    """The games whose post-game work is due by ``now`` (None: all pending), oldest first (one read, no lock)."""
    return [game_id for game_id, at in _pending(limit=limit) if now is None or at <= now]


def post_games_next_due() -> datetime | None:
    """When the next pending post-game work falls due (a retry's time), None when none is pending."""
    first = _pending(limit=1)
    return first[0][1] if first else None


def post_games_run(*, now: datetime | None = None) -> int:
    """Do the post-game work due by ``now`` (None: all pending, at once: tests and commands run it so,
    rather than wait for the loop), each game in its own transaction; how many this call did. A game whose
    work fails is logged and put off by :data:`RETRY` from ``now`` (or the time)."""
    return post_games_round(now=now)[0]


def post_games_round(*, now: datetime | None) -> tuple[int, datetime | None]:
    """:func:`post_games_run`, and when the next pending work falls due after it, from the read that found
    nothing more due (one read a batch, none more for the next time)."""
    done = 0
    tried: set[UUID] = set()  # each game once a call (one another process holds, or whose work failed)
    while True:
        pending = _pending()
        due = [game_id for game_id, at in pending if (now is None or at <= now) and game_id not in tried]
        if not due:
            return done, pending[0][1] if pending else None
        for game_id in due:
            tried.add(game_id)
            try:
                done += post_game_do(game_id, now=now or timezone.now())
            except Exception:
                log.exception("the post-game work of game %s failed; tried again in %s", game_id, RETRY)
                later = (now or timezone.now()) + RETRY
                Game.objects.filter(pk=game_id, post_due__isnull=False).update(post_due=later)


# One thread for the process's post-game work (live.offload.offload_alone): a drop on the database lane never
# waits behind another game's end.
THREAD = "postgame"


class PostGameLoop(WakerService):
    """The post-game work of one event loop (made by its runtime with the runtime): its first round at once
    (the work a dead process left), then when a game ends here, when a retry falls due, at the latest every
    :data:`LOOK_SECONDS`."""

    hears = (PostGameQueued,)
    name = "post-game"
    longest = LOOK_SECONDS

    def __init__(self, runtime: Runtime) -> None:
        super().__init__()
        self.runtime = runtime
        self.done = 0  # games this loop did (tests, the benchmark)

    async def stop(self) -> None:
        """Stop looking; a round in its thread is waited for (its transaction commits, or rolls back whole)."""
        await super().stop()
        await alone_drained(THREAD)

    def covers(self, signal: Signal) -> bool:
        """A round planned by now already does the game that just ended (read from any thread)."""
        return self.waker.covers()

    async def step(self, *, now: datetime) -> datetime | None:
        done, due = await offload_alone(post_games_round, thread=THREAD)(now=now)
        self.done += done
        return due
