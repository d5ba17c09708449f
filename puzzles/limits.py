"""The quota on judging moves: each ``POST /api/puzzles/{id}/move`` runs proofs (a few ms, tens at worst),
so one client address may send at most :data:`MOVES_PER_MINUTE_PER_ADDRESS` a minute (a person solving
fast sends a handful)."""

from __future__ import annotations

import logging
from datetime import datetime

from django.core.cache import cache
from django.utils.translation import gettext
from redis.exceptions import RedisError

from common.ratelimit import Quota, quota_take

log = logging.getLogger(__name__)

MOVES_PER_MINUTE_PER_ADDRESS = 60


def puzzle_move_quota_take(*, address: str, now: datetime) -> None:
    """Count one judged move for the address. An unreachable cache counts nothing (judging goes on).

    Raises:
        RateLimited: the quota is spent (nothing was counted).
    """
    quota = Quota("puzzle-moves-by-address", MOVES_PER_MINUTE_PER_ADDRESS, 60)
    try:
        quota_take(cache, [(quota, address)], now=now, message=gettext("Too many puzzle moves."))
    except RedisError as exc:
        log.warning("puzzle moves not counted: the cache is unreachable (%s)", exc)
