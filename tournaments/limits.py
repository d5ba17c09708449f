"""Quotas on joining, pausing and withdrawing from arenas (``POST /api/tournaments/{id}/join``, ``/pause``,
``/withdraw``): far above what a person does, against scripts (each one changes the arena every watcher is
sent). One player may take :data:`ACTIONS_PER_MINUTE_PER_PLAYER` of them a minute, one client address
``ARENA_ACTIONS_PER_MINUTE_PER_ADDRESS`` (a setting, read at each call: the load benchmarks join hundreds
of players from one address; the guests made at one address are many, each costing nothing), refused ones
too. Counted in Django's cache (Redis when ``REDIS_URL`` is set, so across processes); while
the cache is unreachable nothing is counted (a warning is logged) and the request goes on.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext

from common.ratelimit import player_and_address, quota_take

ACTIONS_PER_MINUTE_PER_PLAYER = 20


def arena_action_quota_take(*, player_id: str, address: str | None, now: datetime) -> None:
    """Count one join, pause or withdrawal of the player, and of the client ``address`` when known.

    Raises:
        RateLimited: a quota is spent (nothing was counted).
    """
    takes = player_and_address("arena-actions", player_id=player_id, per_player=ACTIONS_PER_MINUTE_PER_PLAYER,
                               address=address, per_address=settings.ARENA_ACTIONS_PER_MINUTE_PER_ADDRESS,
                               window_seconds=60)
    quota_take(cache, takes, now=now, message=gettext("Too many arena joins, pauses and withdrawals."),
               unreachable_passes=True)
