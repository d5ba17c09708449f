"""The notifications' quotas, counted in the shared cache (Redis when ``REDIS_URL`` is set, so they hold
across processes): pages read and marks made per player in a minute, far above what a page sends (one
GET when the bell opens, one POST per mark), and per client address (a guest costs nothing: ten players'
worth). An unreachable cache counts nothing (the request goes on)."""

from __future__ import annotations

from datetime import datetime

from django.core.cache import cache
from django.utils.translation import gettext

from common.ratelimit import Quota, quota_take

PAGES_PER_MINUTE = 60
READS_PER_MINUTE = 60
PAGES_PER_MINUTE_PER_ADDRESS = 600
READS_PER_MINUTE_PER_ADDRESS = 600
PAGES = Quota("notification-pages-by-player", PAGES_PER_MINUTE, 60)
READS = Quota("notification-reads-by-player", READS_PER_MINUTE, 60)
PAGES_BY_ADDRESS = Quota("notification-pages-by-address", PAGES_PER_MINUTE_PER_ADDRESS, 60)
READS_BY_ADDRESS = Quota("notification-reads-by-address", READS_PER_MINUTE_PER_ADDRESS, 60)


def notifications_quota_take(quota: Quota, *, player_id: object, address: str | None, now: datetime) -> None:
    """Count one request of ``quota``'s kind (:data:`PAGES` or :data:`READS`) for the player, and for the client
    ``address`` when known.

    Raises:
        RateLimited: a quota is spent (nothing was counted).
    """
    takes = [(quota, str(player_id))]
    if address is not None:
        takes.append((PAGES_BY_ADDRESS if quota.scope == PAGES.scope else READS_BY_ADDRESS, address))
    quota_take(cache, takes, now=now, message=gettext("Too many notification requests."), unreachable_passes=True)
