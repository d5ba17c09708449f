"""The arcade's quotas (settings ``ARCADE_*``, README): runs started per hour per player and per client
address, and steps (moves, undos, continues, ends) per second per run, well above a fast human's.

The runs started are counted in the cache shared by every process (``common.ratelimit``); an unreachable
cache counts nothing, and play goes on. The steps of a run are counted in the process that applies them
(:data:`STEPS`), which costs a move no round trip: a run played on one process is held to the quota exactly,
and one whose steps are spread over P processes to at most P times it, each process counting those it
applied (docs/arcade.md, "Limits").
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict, deque
from datetime import datetime

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext

from common.errors import RateLimited
from common.ratelimit import Quota, quota_take


def runs_quota_take(*, player_id: str, address: str | None, now: datetime) -> None:
    """Count one run started by the player (and from the address, when known).

    Raises:
        RateLimited: a quota is spent (nothing was counted).
    """
    takes = [(Quota("arcade-runs-by-player", settings.ARCADE_RUNS_PER_HOUR_PER_PLAYER, 3600), player_id)]
    if address is not None:
        takes.append((Quota("arcade-runs-by-address", settings.ARCADE_RUNS_PER_HOUR_PER_ADDRESS, 3600), address))
    quota_take(cache, takes, now=now, message=gettext("Too many runs started."), unreachable_passes=True)


STEP_WINDOW = 1.0  # seconds: the steps quota is so many steps in any window this long
COUNTED_RUNS = 10_000  # the runs whose last steps a process remembers, the least recently stepped forgotten first


class StepWindows:
    """The times of each run's steps applied in this process within the last :data:`STEP_WINDOW`: a sliding
    window, exact (thread-safe; at most ``size`` runs, the least recently stepped forgotten first)."""

    def __init__(self, size: int = COUNTED_RUNS) -> None:
        self.size = size
        self._runs: OrderedDict[str, deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, run_id: str, *, allowed: int, at: float) -> float | None:
        """Count one step of the run at ``at`` (seconds) if fewer than ``allowed`` were counted in the window
        before it; else count nothing and return the seconds until one more fits."""
        with self._lock:
            times = self._runs.get(run_id)
            if times is None:
                times = self._runs[run_id] = deque()
                while len(self._runs) > self.size:
                    self._runs.popitem(last=False)
            else:
                self._runs.move_to_end(run_id)
            while times and times[0] <= at - STEP_WINDOW:
                times.popleft()
            if len(times) >= allowed:
                return times[-allowed] + STEP_WINDOW - at
            times.append(at)
            return None

    def clear(self) -> None:
        with self._lock:
            self._runs.clear()


STEPS = StepWindows()


def steps_quota_take(*, run_id: str, now: datetime) -> None:
    """Count one step of the run, in this process (:data:`STEPS`).

    Raises:
        RateLimited: ``ARCADE_MOVES_PER_SECOND_PER_RUN`` steps of the run were applied here in the second
            before ``now`` (nothing was counted).
    """
    wait = STEPS.take(run_id, allowed=settings.ARCADE_MOVES_PER_SECOND_PER_RUN, at=now.timestamp())
    if wait is not None:
        raise RateLimited(max(1, math.ceil(wait)), message=gettext("Too many moves in a second."))

