"""The quota on judging moves: each ``POST /api/puzzles/{id}/move`` runs proofs (a few ms, tens at worst),
so one client address may send at most :data:`MOVES_PER_MINUTE_PER_ADDRESS` a minute (a person solving
fast sends a handful)."""

from __future__ import annotations

from datetime import datetime

from django.core.cache import cache
from django.utils.translation import gettext

from common.ratelimit import Quota, quota_take

MOVES_PER_MINUTE_PER_ADDRESS = 60


def puzzle_move_quota_take(*, address: str, now: datetime) -> None:
    """Count one judged move for the address. An unreachable cache counts nothing (judging goes on).

    Raises:
        RateLimited: the quota is spent (nothing was counted).
    """
    quota = Quota("puzzle-moves-by-address", MOVES_PER_MINUTE_PER_ADDRESS, 60)
    quota_take(cache, [(quota, address)], now=now, message=gettext("Too many puzzle moves."), unreachable_passes=True)
