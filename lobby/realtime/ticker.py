"""The per-process ticker that makes due things happen: CPU seats' moves, turn timeouts, stand-ins.

Deadlines live in the database (``Game.due_at``); any server process may apply one. Each round this
process leases the games that are due (so no other process works on them), computes the CPU's move
off the loop, and applies it through the same service as a person's move, which refuses it if the
game moved on. A killed process's leases simply expire and another process (or the restarted one)
takes over. The ticker wakes on work, not on a clock (a :class:`live.periodic.Waker`): at the earliest
deadline the data holds, when a service of this process sets one (``lobby.events.WakeUp`` with its time),
at its presence's heartbeat and sweep, and at the latest every ``LOOK_SECONDS`` (a deadline set by another
process that died, a lease run out).

The ticker also drives finished games' analyses: when this process's analysis lane is idle it leases the
oldest queued one and computes it in that lane (games/cpu_pool.py), which never takes a live move's worker;
it looks when a game ended here, when an analysis is done, and every ``ANALYSIS_POLL_SECONDS``. An analysis
is work for a quiet moment: while this process is busy with live play (more than ``ANALYSIS_BUSY_SHARE`` of a
core over the last ``BUSY_SPAN_SECONDS``; a game's end looks that long after it) it leases none, since the
lane's few seconds of CPU would take the machine's cores from the moves (measured in docs/benchmarks.md, "the
two-process tail"), unless it has waited ``ANALYSIS_LONGEST_WAIT_SECONDS`` since its last one started.

Once an hour it deletes the chat of rooms closed more than ``CHAT_RETENTION_DAYS`` ago (any process may;
deleting twice deletes nothing more).

The same ticker runs this process's presence (:mod:`lobby.realtime.presence`): its heartbeat, the retry
of failed clean-ups, and the sweep of dead processes' connections. It is part of its loop's lobby service
(:class:`lobby.realtime.loop.LobbyLoop`), which starts and stops it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import DatabaseError
from django.utils import timezone

from common import logcontext
from games import cpu_pool
from games.analyses import AnalysisJob, analyses_claim, analysis_give_up, analysis_release, analysis_store
from games.engine.analyse import OverBudget
from live.offload import offload
from live.periodic import Waker
from lobby.chat.services import chat_delete_expired
from lobby.play.automatic import CpuJob, game_cpu_move, game_due_job
from lobby.realtime.presence import Presence
from lobby.timers import DueReason, games_due

log = logging.getLogger(__name__)

# The longest the ticker sleeps: deadlines another process set (and would have acted on, had it not died)
# and leases run out are seen within this; the presence's heartbeat and sweep have their own times.
LOOK_SECONDS = 5.0
# The first look after the loop starts.
FIRST_SECONDS = 0.25
# Longer than any CPU budget: a lease outliving its process lets another process take over.
LEASE = timedelta(seconds=15)
# Longer than an analysis takes (its budget is 20 s of wall clock, plus the guaranteed part).
ANALYSIS_LEASE = timedelta(minutes=3)
# How often an idle analysis lane looks for queued analyses nobody told it of (queued on another process);
# a game that ends on this one wakes it at once (games.analyses.AnalysisQueued), as does an analysis done.
ANALYSIS_POLL_SECONDS = 10.0
# A CPU move computed while the database is unreachable is offered again every second this many times
# (well within the lease), so that it lands as soon as the database is back rather than being computed
# afresh once the lease has run out.
STORE_ATTEMPTS = 10
STORE_RETRY_SECONDS = 1.0
# How often each process deletes expired chat (the first tick does it too).
CHAT_PURGE_SECONDS = 3600.0
# The span over which this process's CPU share is judged before an analysis starts: a game's end looks this
# long after it, judging the seconds just after the end (not a quiet span before the play began).
BUSY_SPAN_SECONDS = 2.0
# Samples of the process's CPU closer together than this are not kept (a busy process looks many times a second).
SAMPLE_SECONDS = 0.25
# A process busy for longer than this since its last analysis started starts one all the same, so that under
# play that never quietens analyses still come, one every few minutes (each a few seconds of a core).
ANALYSIS_LONGEST_WAIT_SECONDS = 300.0


class ProcessLoad:
    """This process's share of a core (all its threads' CPU time over wall time) over the last
    ``BUSY_SPAN_SECONDS``: from the newest sample at least that old (the ticker samples at each tick and each
    game's end) to now; the clocks are injected (tests)."""

    def __init__(self, wall: Callable[[], float] = time.monotonic,
                 cpu: Callable[[], float] = time.process_time) -> None:
        self.wall = wall
        self.cpu = cpu
        self.samples: deque[tuple[float, float]] = deque([(wall(), cpu())], maxlen=64)

    def sample(self) -> None:
        wall = self.wall()
        if wall - self.samples[-1][0] >= SAMPLE_SECONDS:
            self.samples.append((wall, self.cpu()))

    def share(self) -> float:
        wall, cpu = self.wall(), self.cpu()
        since = next((s for s in reversed(self.samples) if wall - s[0] >= BUSY_SPAN_SECONDS), self.samples[0])
        return (cpu - since[1]) / (wall - since[0]) if wall > since[0] else 0.0


class Ticker:
    """One per running event loop (one per server process in production), owned by its loop's lobby service."""

    def __init__(self, presence: Presence, load: ProcessLoad | None = None) -> None:
        self.in_flight: set[str] = set()
        self.children: set[asyncio.Task[None]] = set()
        self.analysis: asyncio.Task[None] | None = None
        self.last_analysis_poll = -ANALYSIS_POLL_SECONDS
        self.analysis_not_before = 0.0  # (loop time) a game's end: no analysis is judged before its span
        self.last_chat_purge: float | None = None
        self.presence = presence
        self.waker = Waker(self.tick, name="games-ticker", longest=LOOK_SECONDS)
        self.warming: asyncio.Task[None] | None = None
        self.load = load or ProcessLoad()
        self.last_analysis_start = self.load.wall()  # (the load's clock) a new process waits its whole time

    @property
    def task(self) -> asyncio.Task[None] | None:
        return self.waker.task

    def start(self) -> None:
        """Start ticking in the running loop (again, if an earlier task ended)."""
        self.waker.start(after=FIRST_SECONDS)
        if self.warming is None:
            self.warming = asyncio.get_running_loop().create_task(self._warm_up(), name="cpu-warm-up")

    def wake(self, at: datetime | None = None) -> None:
        """Something falls due at ``at`` (None: now): look then (call in the loop's thread)."""
        self.waker.wake(at)

    def analysis_queued(self) -> None:
        """An analysis was queued (a game ended here): look for one ``BUSY_SPAN_SECONDS`` from now (or at
        once, where analyses never wait: ``ANALYSIS_BUSY_SHARE`` 0), judging how busy the process was since."""
        self.last_analysis_poll = -ANALYSIS_POLL_SECONDS
        if float(settings.ANALYSIS_BUSY_SHARE) <= 0:
            self.waker.wake()
            return
        self.load.sample()
        loop_now = asyncio.get_running_loop().time()
        if self.analysis_not_before <= loop_now:  # (a look planned already is not put off by later ends)
            self.analysis_not_before = loop_now + BUSY_SPAN_SECONDS
            self.waker.wake(timezone.now() + timedelta(seconds=BUSY_SPAN_SECONDS))

    async def stop(self) -> None:
        await self.waker.stop()
        tasks = [t for t in (self.warming, *self.children) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _warm_up(self) -> None:
        try:
            await cpu_pool.warm_up()
        except Exception:  # the pool is retried on first use
            log.exception("could not start the CPU worker pool")

    async def tick(self, *, now: datetime) -> datetime:
        """Start the due work; return when to look next: the next deadline, the presence's next step, the
        next look for analyses or the chat, whichever comes first (at most ``LOOK_SECONDS`` away)."""
        loop = asyncio.get_running_loop()
        self.load.sample()
        await self.presence.tick()
        due = await offload(games_due)(now=now, lease=LEASE)
        for game_id in due.claimed:
            if game_id in self.in_flight:
                continue
            self.in_flight.add(game_id)
            child = loop.create_task(self._handle(game_id))
            self.children.add(child)
            child.add_done_callback(self.children.discard)
        await self._start_analysis(now)
        await self._purge_chat(now)
        analysis_in = ANALYSIS_POLL_SECONDS - (loop.time() - self.last_analysis_poll)
        if self.analysis_not_before > loop.time():  # a game's end's look (none before it: no round until then)
            analysis_in = max(analysis_in, self.analysis_not_before - loop.time())
        after = [self.presence.due_in(), analysis_in]
        if self.last_chat_purge is not None:
            after.append(CHAT_PURGE_SECONDS - (loop.time() - self.last_chat_purge))
        look = timezone.now() + timedelta(seconds=max(0.0, min(after)))
        return look if due.next_at is None else min(look, due.next_at)

    async def _start_analysis(self, now: datetime) -> None:
        """Lease one queued analysis if this process's analysis lane is idle (one at a time) and the process
        is not busy with live play (``ANALYSIS_BUSY_SHARE``: the next look is a game's end or
        ``ANALYSIS_POLL_SECONDS`` away). A process whose ``ANALYSIS_CPU_BUDGET_S`` is 0 computes none: it
        leases nothing, and a queued analysis stays queued for a process that computes them (nobody is
        shown "failed" for an operator's choice)."""
        loop = asyncio.get_running_loop()
        running = self.analysis is not None and not self.analysis.done()
        if running or loop.time() - self.last_analysis_poll < ANALYSIS_POLL_SECONDS:
            return
        if loop.time() < self.analysis_not_before - 0.05:  # a game's end: its look is at the end of its span
            return
        self.last_analysis_poll = loop.time()
        if float(settings.ANALYSIS_CPU_BUDGET_S) <= 0:
            return
        busy_share = float(settings.ANALYSIS_BUSY_SHARE)
        waited = self.load.wall() - self.last_analysis_start
        if busy_share > 0 and self.load.share() >= busy_share and waited < ANALYSIS_LONGEST_WAIT_SECONDS:
            return
        for job in await offload(analyses_claim)(now=now, lease=ANALYSIS_LEASE, limit=1):
            self.last_analysis_start = self.load.wall()
            self.analysis = loop.create_task(self._analyse(job), name=f"analysis-{job.game_id}")
            self.children.add(self.analysis)
            self.analysis.add_done_callback(self.children.discard)

    async def _purge_chat(self, now: datetime) -> None:
        """Delete expired chat (``CHAT_RETENTION_DAYS`` after its room closed), once per CHAT_PURGE_SECONDS."""
        loop_now = asyncio.get_running_loop().time()
        if self.last_chat_purge is not None and loop_now - self.last_chat_purge < CHAT_PURGE_SECONDS:
            return
        self.last_chat_purge = loop_now
        keep = timedelta(days=settings.CHAT_RETENTION_DAYS)
        deleted = await offload(chat_delete_expired)(now=now, keep=keep)
        if deleted:
            log.info("deleted %d chat message(s) of rooms closed over %g day(s) ago", deleted,
                     settings.CHAT_RETENTION_DAYS)

    async def _analyse(self, job: AnalysisJob) -> None:
        logcontext.bind(game=job.game_id)
        try:
            result = await cpu_pool.compute_analysis(job.record)
            await offload(analysis_store)(game_id=job.game_id, result=result, now=timezone.now())
        except asyncio.CancelledError:
            raise
        except OverBudget as over:
            log.info("analysis of game %s given up at its CPU budget (ANALYSIS_CPU_BUDGET_S): %s", job.game_id, over)
            await offload(analysis_give_up)(game_id=job.game_id, now=timezone.now())
        except Exception:
            log.exception("analysis of game %s failed", job.game_id)
            await offload(analysis_release)(game_id=job.game_id, now=timezone.now())
        self.last_analysis_poll = -ANALYSIS_POLL_SECONDS  # the lane is free: the next queued one, if any, at once
        self.waker.wake()

    async def _handle(self, game_id: str) -> None:
        logcontext.bind(game=game_id)  # this task's own context: its log lines name the game
        try:
            job: CpuJob | None = await offload(game_due_job)(game_id=game_id, now=timezone.now())
            if job is None:
                return
            logcontext.bind(room=job.code)
            deadline_move = job.reason in (DueReason.TIMEOUT, DueReason.AWAY)
            peg = await cpu_pool.compute_move(job.record, job.level, deadline_move=deadline_move)
            await self._store(job, peg)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("automatic move for game %s failed; its lease will expire and it is retried", game_id)
        finally:
            self.in_flight.discard(game_id)


    async def _store(self, job: CpuJob, peg: str) -> None:
        """Play the computed move, retrying while the database is unreachable.

        Retrying is safe: the service plays it only if the game is still where the job found it.

        Raises:
            DatabaseError: still unreachable after STORE_ATTEMPTS tries (the lease then runs out).
        """
        for attempt in range(1, STORE_ATTEMPTS + 1):
            try:
                await offload(game_cpu_move)(job=job, peg=peg, now=timezone.now())
                return
            except DatabaseError as exc:
                if attempt == STORE_ATTEMPTS:
                    raise
                log.warning("could not store the CPU's move (attempt %d of %d): %s: %s", attempt, STORE_ATTEMPTS,
                            type(exc).__name__, " ".join(str(exc).split())[:200])
                await asyncio.sleep(STORE_RETRY_SECONDS)
