"""Computing CPU moves and post-game analyses off the event loop, in two separate lanes.

Live CPU moves run in a pool of worker processes (or threads when ``CPU_WORKERS`` is 0), so a thinking
CPU never stalls the loop serving other rooms. Analyses (up to ~20 s of CPU each) run in a lane of their
own: one worker process started at a lowered OS priority (``ANALYSIS_NICE``), or one thread when
``CPU_WORKERS`` is 0. So an analysis never occupies a worker a live move needs, and when both compete for
a core the kernel serves the live move first.

A worker process that dies (killed, out of memory) breaks its whole pool for good: every job then
fails with ``BrokenProcessPool``. So a move that meets a broken pool replaces it with a fresh one and
is asked once more. The ticker's lease makes sure the move it computes is played once. An analysis
that meets a broken lane replaces it and fails; its row is queued again.
"""
from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from django.conf import settings

from common import metrics
from games.engine.analyse import analyse_game
from games.engine.cpu import choose_move, default_budget_ms

log = logging.getLogger(__name__)

# A move the CPU plays because a deadline passed (a timeout, a stand-in) must land within about a
# second of the deadline, so it thinks at most this long whatever the level.
DEADLINE_MOVE_MS = 600

_lock = threading.Lock()
_executor: Executor | None = None
_analysis_executor: Executor | None = None
# How much the analysis worker process lowers its priority (os.nice increment: 19 is the lowest).
ANALYSIS_NICE = 15


def _get_executor() -> Executor:
    global _executor
    with _lock:
        if _executor is None:
            workers = int(settings.CPU_WORKERS)
            if workers > 0:
                # spawn: a forked copy of a threaded server process is not safe
                _executor = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
            else:
                _executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="cpu")
        return _executor


def _discard_broken(executor: Executor) -> None:
    """Forget ``executor`` (a broken pool) so the next job starts a fresh one.

    Several jobs may meet the same broken pool; only the first replaces it.
    """
    global _executor
    with _lock:
        if _executor is not executor:
            return
        _executor = None
    metrics.CPU_POOL_REPLACED.inc()
    executor.shutdown(wait=False, cancel_futures=True)


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
    executor = _get_executor()
    try:
        return await loop.run_in_executor(executor, _choose, record, level, budget, seed)
    except BrokenProcessPool as exc:
        log.warning("a CPU worker process died (%s): starting a new pool and asking again", exc)
        _discard_broken(executor)
    return await loop.run_in_executor(_get_executor(), _choose, record, level, budget, seed)


async def warm_up() -> None:
    """Start the worker pool now, so the first CPU move does not pay for starting a process."""
    await _in_pool("", 1, 1, 0)


def _choose(record: str, level: int, budget_ms: int | None, seed: int | None) -> str:
    return choose_move(record, level, budget_ms=budget_ms, seed=seed)


# --- the analysis lane --------------------------------------------------------------------------------
def _lower_priority() -> None:
    """Initializer of the analysis worker process: yield the CPU to the live moves' workers."""
    if hasattr(os, "nice"):
        os.nice(ANALYSIS_NICE)


def _get_analysis_executor() -> Executor:
    global _analysis_executor
    with _lock:
        if _analysis_executor is None:
            if int(settings.CPU_WORKERS) > 0:
                _analysis_executor = ProcessPoolExecutor(
                    max_workers=1, mp_context=multiprocessing.get_context("spawn"), initializer=_lower_priority
                )
            else:
                # Threads cannot be reniced portably; the lane is still separate from the moves' threads.
                _analysis_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="analysis")
        return _analysis_executor


def _discard_broken_analysis(executor: Executor) -> None:
    """Forget the analysis lane ``executor`` (a broken pool) so the next analysis starts a fresh one."""
    global _analysis_executor
    with _lock:
        if _analysis_executor is not executor:
            return
        _analysis_executor = None
    executor.shutdown(wait=False, cancel_futures=True)


def analysis_budget() -> tuple[int, float]:
    """(proof nodes per position, seconds per game) for an analysis: the settings scaled by
    ``CPU_TIME_SCALE`` (tests make it quick)."""
    scale = float(settings.CPU_TIME_SCALE)
    nodes = max(1, int(int(settings.ANALYSIS_NODE_BUDGET) * scale))
    seconds = max(0.05, float(settings.ANALYSIS_TIME_BUDGET_S) * scale)
    return nodes, seconds


async def compute_analysis(record: str) -> dict[str, object]:
    """The analysis JSON (docs/analysis.md) of the game ``record``, computed in the analysis lane.

    Raises:
        BrokenProcessPool: the lane's worker died during it (the lane is replaced for the next one).
    """
    loop = asyncio.get_running_loop()
    nodes, seconds = analysis_budget()
    executor = _get_analysis_executor()
    try:
        return await loop.run_in_executor(executor, _analyse, record, nodes, seconds)
    except BrokenProcessPool:
        _discard_broken_analysis(executor)
        raise


def _analyse(record: str, node_budget: int, time_budget_s: float) -> dict[str, object]:
    return analyse_game(record, node_budget=node_budget, time_budget_s=time_budget_s).to_json()
