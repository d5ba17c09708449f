"""The arcade's quotas (settings ``ARCADE_*``, README): runs started per hour per player and per client
address, and steps (moves, undos, continues, ends) per second per run, well above a fast human's. Counted in
the cache shared by every process (``common.ratelimit``); an unreachable cache counts nothing, and play goes on.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext
from redis.exceptions import RedisError

from common.ratelimit import Quota, quota_take

log = logging.getLogger(__name__)


def runs_quota_take(*, player_id: str, address: str | None, now: datetime) -> None:
    """Count one run started by the player (and from the address, when known).

    Raises:
        RateLimited: a quota is spent (nothing was counted).
    """
    takes = [(Quota("arcade-runs-by-player", settings.ARCADE_RUNS_PER_HOUR_PER_PLAYER, 3600), player_id)]
    if address is not None:
        takes.append((Quota("arcade-runs-by-address", settings.ARCADE_RUNS_PER_HOUR_PER_ADDRESS, 3600), address))
    try:
        quota_take(cache, takes, now=now, message=gettext("Too many runs started."))
    except RedisError as exc:
        log.warning("arcade runs not counted: the cache is unreachable (%s)", exc)


def steps_quota_take(*, run_id: str, now: datetime) -> None:
    """Count one step of the run.

    Raises:
        RateLimited: more than ``ARCADE_MOVES_PER_SECOND_PER_RUN`` in the last second (nothing was counted).
    """
    quota = Quota("arcade-steps-by-run", settings.ARCADE_MOVES_PER_SECOND_PER_RUN, 1)
    try:
        quota_take(cache, [(quota, run_id)], now=now, message=gettext("Too many moves in a second."))
    except RedisError as exc:
        log.warning("arcade moves not counted: the cache is unreachable (%s)", exc)
