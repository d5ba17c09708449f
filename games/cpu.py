"""Computing CPU moves off the event loop: in a pool of worker processes (or a thread when
``CPU_WORKERS`` is 0), so a thinking CPU never stalls the loop serving other rooms.

A worker process that dies (killed, out of memory) breaks its whole pool for good: every job then
fails with ``BrokenProcessPool``. So a job that meets a broken pool replaces it with a fresh one and
is asked once more. The scheduler's lease makes sure the move it computes is played once.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from django.conf import settings

from common import metrics
from games.engine.cpu import choose_move, default_budget_ms

log = logging.getLogger(__name__)

# A move the CPU plays because a deadline passed (a timeout, a stand-in) must land within about a
# second of the deadline, so it thinks at most this long whatever the level.
DEADLINE_MOVE_MS = 600

_lock = threading.Lock()
_executor: Executor | None = None


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
