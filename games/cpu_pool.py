"""Computing CPU moves, post-game analyses and the analysis board's answers off the event loop, in three separate lanes.

Live CPU moves run in a pool of worker processes (or threads when ``CPU_WORKERS`` is 0), so a thinking
CPU never stalls the loop serving other rooms. Analyses (up to ~20 s of CPU each) run in a lane of their
own: one worker process started at a lowered OS priority (``ANALYSIS_NICE``), or one thread when
``CPU_WORKERS`` is 0. So an analysis never occupies a worker a live move needs, and when both compete for
a core the kernel serves the live move first. The analysis board's answers (``study.board``, up to
``ANALYSIS_BOARD_MAX_MS`` of CPU each) run in a third lane, ``ANALYSIS_BOARD_WORKERS`` worker processes (or
threads) with as many answers waiting as ``ANALYSIS_BOARD_QUEUE``: one more is refused (:class:`LaneFull`)
rather than given a thread, so however many are asked at once, no other request waits on them.

A worker process that dies (killed, out of memory) breaks its whole pool for good: every job then
fails with ``BrokenProcessPool``. So a move that meets a broken pool replaces it with a fresh one and
is asked once more. The ticker's lease makes sure the move it computes is played once. An analysis
that meets a broken lane replaces it and fails; its row is queued again.

A worker process ignores SIGTERM and SIGINT: the server process decides when it ends. A service manager
stops a server by signalling every process of its group at once (systemd's control group, a terminal's
Ctrl-C), and a worker dying first broke the pool under a running analysis, logged as its failure. The
server ends its lanes itself once its loops have stopped (:func:`shutdown`), and a worker whose server
died without doing so (``kill -9``) ends with it: it waits on its parent's sentinel.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from django.conf import settings

from common import metrics
from games.engine import Position
from games.engine.analyse import OverBudget, analyse_game
from games.engine.cpu import choose_move, default_budget_ms
from games.engine.verdicts import BoardVerdict, board_verdict

log = logging.getLogger(__name__)

# A move the CPU plays because a deadline passed (a timeout, a stand-in) must land within about a
# second of the deadline, so it thinks at most this long whatever the level.
DEADLINE_MOVE_MS = 600

_lock = threading.Lock()
_board_jobs = 0  # the analysis board's answers in its lane, running or waiting (this process's)
# How much the analysis worker process lowers its priority (os.nice increment: 19 is the lowest), and the
# analysis board's (a person waits for its answer: below the live moves, above the post-game analyses).
ANALYSIS_NICE = 15
BOARD_NICE = 5


# How long ending a lane waits for its process pool's manager thread (it ends within milliseconds of the kill).
MANAGER_JOIN_SECONDS = 5.0


class _Lane:
    """One pool of this module's: started on its first job (worker processes when ``CPU_WORKERS`` > 0, else
    threads), forgotten when it breaks so that the next job starts a fresh one."""

    def __init__(self, name: str, workers: Callable[[], int], nice: int = 0) -> None:
        self.name, self.workers, self.nice = name, workers, nice
        self.executor: Executor | None = None

    def get(self) -> Executor:
        with _lock:
            if self.executor is None:
                if int(settings.CPU_WORKERS) > 0:
                    # spawn: a forked copy of a threaded server process is not safe
                    self.executor = ProcessPoolExecutor(
                        max_workers=self.workers(), mp_context=multiprocessing.get_context("spawn"),
                        initializer=_worker_start, initargs=(self.nice,))
                else:  # threads cannot be reniced portably; the lane is still apart from the others' threads
                    self.executor = ThreadPoolExecutor(max_workers=self.workers(), thread_name_prefix=self.name)
            return self.executor

    def discard(self, executor: Executor) -> bool:
        """Forget ``executor`` (a broken pool); several jobs may meet it, only the first replaces it."""
        with _lock:
            if self.executor is not executor:
                return False
            self.executor = None
        executor.shutdown(wait=False, cancel_futures=True)
        return True

    def end(self) -> None:
        """End this lane: its waiting jobs cancelled, its worker processes killed (a running job's answer
        would have nobody to go to), its threads left to finish what they run."""
        with _lock:
            executor, self.executor = self.executor, None
        if executor is None:
            return
        # ProcessPoolExecutor names no public way to end a running job before Python 3.14's terminate_workers.
        processes = list((getattr(executor, "_processes", None) or {}).values())
        manager = getattr(executor, "_executor_manager_thread", None)
        executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.kill()
        # Its manager thread sees the workers gone and closes its wake-up pipe: waited for here, because
        # Python's own exit hook for process pools (concurrent.futures.process._python_exit) writes to that
        # pipe without a lock and, racing the close, logged "OSError: Bad file descriptor" at a SIGTERM.
        if manager is not None:
            manager.join(timeout=MANAGER_JOIN_SECONDS)


# Live CPU moves: CPU_WORKERS processes (two threads when it is 0); post-game analyses: one; the board's.
_moves = _Lane("cpu", lambda: int(settings.CPU_WORKERS) or 2)
_analyses = _Lane("analysis", lambda: 1, nice=ANALYSIS_NICE)
_boards = _Lane("board", lambda: max(1, int(settings.ANALYSIS_BOARD_WORKERS)), nice=BOARD_NICE)


def shutdown() -> None:
    """End every lane (the server is stopping, its loops stopped): nothing waits for a job in flight; a
    leased analysis or CPU move is taken over by another process once its lease runs out."""
    for lane in (_moves, _analyses, _boards):
        lane.end()


def budget_ms(level: int, *, deadline_move: bool) -> int:
    """The thinking time for a move at ``level``: the level's own, capped for deadline moves, then
    scaled by ``CPU_TIME_SCALE``."""
    budget = default_budget_ms(level)
    if deadline_move:
        budget = min(budget, DEADLINE_MOVE_MS)
    return max(1, int(budget * float(settings.CPU_TIME_SCALE)))


async def compute_move(record: str, level: int, *, deadline_move: bool = False, seed: int | None = None) -> str:
    """The CPU's peg for the position after ``record``, computed in the worker pool.

    Raises:
        BrokenProcessPool: a worker died during the job twice in a row (the pool was replaced each time).
    """
    budget = budget_ms(level, deadline_move=deadline_move)
    started = time.perf_counter()
    peg = await _in_pool(record, level, budget, seed)
    metrics.CPU_THINK_SECONDS.labels(level=str(level)).observe(time.perf_counter() - started)
    return peg


async def _in_pool(record: str, level: int, budget: int, seed: int | None) -> str:
    """Run :func:`_choose` in the pool; on a broken pool, once more in a fresh one."""
    loop = asyncio.get_running_loop()
    executor = _moves.get()
    try:
        with _deaf_children():
            job = loop.run_in_executor(executor, _choose, record, level, budget, seed)
        return await job
    except BrokenProcessPool as exc:
        log.warning("a CPU worker process died (%s): starting a new pool and asking again", exc)
        if _moves.discard(executor):
            metrics.CPU_POOL_REPLACED.inc()
    with _deaf_children():
        job = loop.run_in_executor(_moves.get(), _choose, record, level, budget, seed)
    return await job


async def warm_up() -> None:
    """Start the worker pool now, so the first CPU move does not pay for starting a process."""
    await _in_pool("", 1, 1, 0)


def _choose(record: str, level: int, budget_ms: int | None, seed: int | None) -> str:
    return choose_move(record, level, budget_ms=budget_ms, seed=seed)


# The signals that stop a server, which its workers ignore.
_STOPS = frozenset({signal.SIGTERM, signal.SIGINT})


@contextlib.contextmanager
def _deaf_children() -> Iterator[None]:
    """Around a job's submission, which may start a worker process: the stopping signals blocked in this
    thread, so that a worker starts with them blocked (a process inherits its mask) and no signal can end
    it before it has made itself deaf to them (:func:`_worker_start`). One that comes meanwhile reaches
    this process when they are unblocked (or another of its threads at once)."""
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def _worker_start(increment: int) -> None:
    """Initializer of a lane's worker processes: deaf to the signals that stop its server (see the
    module's text), gone when its server is, and at the lane's priority (the analyses' and the board's
    yield the CPU to the live moves')."""
    for stop in _STOPS:
        signal.signal(stop, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)  # blocked since its start (_deaf_children)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent,), name="parent-watch", daemon=True).start()
    if increment and hasattr(os, "nice"):
        os.nice(increment)


def _end_with(parent: multiprocessing.process.BaseProcess) -> None:
    """Wait (on its sentinel: no polling) until ``parent`` is gone, then end this worker at once."""
    parent.join()
    os._exit(0)


# --- the analysis lane --------------------------------------------------------------------------------


def analysis_budget() -> tuple[int, float]:
    """(proof nodes per position, seconds per game) for an analysis: the settings scaled by
    ``CPU_TIME_SCALE`` (tests make it quick)."""
    scale = float(settings.CPU_TIME_SCALE)
    nodes = max(1, int(int(settings.ANALYSIS_NODE_BUDGET) * scale))
    seconds = max(0.05, float(settings.ANALYSIS_TIME_BUDGET_S) * scale)
    return nodes, seconds


async def compute_analysis(record: str) -> dict[str, object]:
    """The analysis JSON (docs/analysis.md) of the game ``record``, computed in the analysis lane within
    ``ANALYSIS_CPU_BUDGET_S`` of CPU (0: none is computed, the lane is not even started).

    Raises:
        BrokenProcessPool: the lane's worker died during it (the lane is replaced for the next one).
        OverBudget: the CPU budget ran out first.
    """
    cpu_seconds = float(settings.ANALYSIS_CPU_BUDGET_S)
    if cpu_seconds <= 0:
        raise OverBudget("ANALYSIS_CPU_BUDGET_S is 0: no post-game analysis")
    loop = asyncio.get_running_loop()
    nodes, seconds = analysis_budget()
    executor = _analyses.get()
    try:
        with _deaf_children():
            job = loop.run_in_executor(executor, _analyse, record, nodes, seconds, cpu_seconds)
        return await job
    except BrokenProcessPool:
        _analyses.discard(executor)
        raise


def _analyse(record: str, node_budget: int, time_budget_s: float,
             cpu_budget_s: float | None = None) -> dict[str, object]:
    return analyse_game(record, node_budget=node_budget, time_budget_s=time_budget_s,
                        cpu_budget_s=cpu_budget_s).to_json()


# --- the analysis board's lane ------------------------------------------------------------------------
class LaneFull(Exception):
    """The analysis board's lane holds as many answers as it takes, running and waiting."""


def board_jobs() -> int:
    """The analysis board's answers in this process's lane now, running or waiting."""
    return _board_jobs


def _board_job_done(_: object) -> None:
    global _board_jobs
    with _lock:
        _board_jobs -= 1


async def compute_board(position: Position, *, budget_ms: int) -> BoardVerdict:
    """The analysis board's verdict on ``position`` within ``budget_ms`` of CPU, computed in its lane.

    A job counts against the lane's bound until it has finished in the pool, even if its caller went away.

    Raises:
        LaneFull: ``ANALYSIS_BOARD_WORKERS`` + ``ANALYSIS_BOARD_QUEUE`` answers are in the lane already.
        BrokenProcessPool: a worker died during it (the lane is replaced for the next one).
    """
    global _board_jobs
    bound = max(1, int(settings.ANALYSIS_BOARD_WORKERS)) + max(0, int(settings.ANALYSIS_BOARD_QUEUE))
    executor = _boards.get()
    with _lock:
        if _board_jobs >= bound:
            raise LaneFull
        _board_jobs += 1
    try:
        with _deaf_children():
            job = executor.submit(_board, position, budget_ms / 1000)
    except BaseException:
        _board_job_done(None)
        raise
    job.add_done_callback(_board_job_done)
    try:
        return await asyncio.wrap_future(job)
    except BrokenProcessPool:
        _boards.discard(executor)
        raise


def _board(position: Position, budget_s: float) -> BoardVerdict:
    return board_verdict(position, budget_s=budget_s)
