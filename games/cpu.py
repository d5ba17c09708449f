"""Computing CPU moves off the event loop: in a pool of worker processes (or a thread when
``CPU_WORKERS`` is 0), so a thinking CPU never stalls the loop serving other rooms."""

from __future__ import annotations

import asyncio
import multiprocessing
import threading
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

from django.conf import settings

from games.engine.cpu import choose_move

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


def scaled_budget_ms(level: int) -> int | None:
    """The level's default time budget scaled by ``CPU_TIME_SCALE`` (None: the level's default)."""
    scale = float(settings.CPU_TIME_SCALE)
    if scale == 1.0:
        return None
    from games.engine.cpu import default_budget_ms

    return max(1, int(default_budget_ms(level) * scale))


async def compute_move(record: str, level: int, *, seed: int | None = None) -> str:
    """The CPU's peg for the position after ``record``, computed in the worker pool."""
    loop = asyncio.get_running_loop()
    budget = scaled_budget_ms(level)
    return await loop.run_in_executor(_get_executor(), _choose, record, level, budget, seed)


def _choose(record: str, level: int, budget_ms: int | None, seed: int | None) -> str:
    return choose_move(record, level, budget_ms=budget_ms, seed=seed)


def shutdown() -> None:
    global _executor
    with _lock:
        if _executor is not None:
            _executor.shutdown(wait=False, cancel_futures=True)
            _executor = None
