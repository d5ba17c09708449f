"""Quotas on following, blocking and searching for players, and on making guests: far above what a person
does, against scripts.

A player (the account) may change follows and blocks :data:`SOCIAL_WRITES_PER_MINUTE` times a minute, and
a client address :data:`SOCIAL_WRITES_PER_MINUTE_PER_ADDRESS` times (the accounts made at one address are
many: each costs only a registration); a client address may search :data:`SEARCHES_PER_MINUTE_PER_ADDRESS`
times a minute (the header's box asks once per pause in typing). A client address may make
``GUESTS_PER_HOUR_PER_ADDRESS`` guests an hour (``POST /api/session``, and the guests a seat, a room or an
arcade run makes on the way; a setting, read at each call: the test servers and load benchmarks make all of
theirs from one address). Counted in Django's cache (Redis when ``REDIS_URL`` is set, so across processes);
while the cache is unreachable nothing is counted (a warning is logged) and the request goes on.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext

from common.ratelimit import Quota, quota_take

SOCIAL_WRITES_PER_MINUTE = 30
SOCIAL_WRITES_PER_MINUTE_PER_ADDRESS = 120
SEARCHES_PER_MINUTE_PER_ADDRESS = 60

SOCIAL_WRITES = Quota("social-writes-by-player", SOCIAL_WRITES_PER_MINUTE, 60)
SOCIAL_WRITES_BY_ADDRESS = Quota("social-writes-by-address", SOCIAL_WRITES_PER_MINUTE_PER_ADDRESS, 60)
SEARCHES = Quota("player-searches-by-address", SEARCHES_PER_MINUTE_PER_ADDRESS, 60)


def social_write_quota_take(*, player_id: str, address: str | None, now: datetime) -> None:
    """Count one follow, unfollow, block or unblock of the player, and of the client ``address`` when known.

    Raises:
        RateLimited: a quota is spent (nothing was counted).
    """
    takes = [(SOCIAL_WRITES, player_id)] + ([(SOCIAL_WRITES_BY_ADDRESS, address)] if address is not None else [])
    _take(takes, now=now, message=gettext("Too many follows and blocks."))


def search_quota_take(*, address: str, now: datetime) -> None:
    """Count one search for players by the client address.

    Raises:
        RateLimited: the quota is spent (nothing was counted).
    """
    _take([(SEARCHES, address)], now=now, message=gettext("Too many searches."))


def guest_create_quota_take(*, address: str, now: datetime) -> None:
    """Count one guest player made for a device at the client ``address``.

    Raises:
        RateLimited: the quota is spent (nothing was counted).
    """
    quota = Quota("guests-by-address", settings.GUESTS_PER_HOUR_PER_ADDRESS, 3600)
    _take([(quota, address)], now=now, message=gettext("Too many new players from your address."))


def _take(takes: list[tuple[Quota, str]], *, now: datetime, message: str) -> None:
    quota_take(cache, takes, now=now, message=message, unreachable_passes=True)
