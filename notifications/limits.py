"""The notifications' quotas, counted in the shared cache (Redis when ``REDIS_URL`` is set, so they hold
across processes): pages read and marks made per player in a minute, far above what a page sends (one
GET when the bell opens, one POST per mark). An unreachable cache counts nothing (the request goes on)."""

from __future__ import annotations

import logging
from datetime import datetime

from django.core.cache import cache
from django.utils.translation import gettext
from redis.exceptions import RedisError

from common.ratelimit import Quota, quota_take

log = logging.getLogger(__name__)

PAGES_PER_MINUTE = 60
READS_PER_MINUTE = 60
PAGES = Quota("notification-pages-by-player", PAGES_PER_MINUTE, 60)
READS = Quota("notification-reads-by-player", READS_PER_MINUTE, 60)


def notifications_quota_take(quota: Quota, *, player_id: object, now: datetime) -> None:
    """Count one request of ``quota``'s kind for the player.

    Raises:
        RateLimited: the quota is spent (nothing was counted).
    """
    try:
        quota_take(cache, [(quota, str(player_id))], now=now, message=gettext("Too many notification requests."))
    except RedisError as exc:
        log.warning("notification requests not counted: the cache is unreachable (%s)", exc)
