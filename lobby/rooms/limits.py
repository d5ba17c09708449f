"""Quotas on the lobby's REST endpoints: limits against scripts, far above what any person does.

Creating rooms is limited per player (the device) and per client address, looking rooms up per address
(a script guessing codes). The numbers are settings (``ROOMS_PER_HOUR_PER_DEVICE``,
``ROOMS_PER_HOUR_PER_ADDRESS``, ``ROOM_LOOKUPS_PER_MINUTE_PER_ADDRESS``), read at each call so tests and
load benchmarks can raise them. Counted in Django's cache: Redis when ``REDIS_URL`` is set, so a quota
holds across server processes. While Redis is unreachable the requests go through uncounted (with a
warning in the log): for those moments, people creating and finding rooms matter more than the limit.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext

from common.ratelimit import Quota, quota_take

HOUR = 3600
MINUTE = 60


def rooms_create_quota_take(*, address: str | None, player_ids: Sequence[str] = (), now: datetime) -> None:
    """Count one new room against the client address and each player (a device's), those given.

    A device without a player yet is counted by its address first, so a refused request makes no guest
    player; once it has one, the caller counts the room against that new player too. An accepted
    challenge (``bots.challenges``) counts its room against the challenger and the accepter.

    Raises:
        RateLimited: a quota is spent (nothing was counted).
    """
    takes: list[tuple[Quota, str]] = []
    if address is not None:
        takes.append((Quota("rooms-by-address", settings.ROOMS_PER_HOUR_PER_ADDRESS, HOUR), address))
    quota = Quota("rooms-by-player", settings.ROOMS_PER_HOUR_PER_DEVICE, HOUR)
    takes.extend((quota, player_id) for player_id in player_ids)
    _take(takes, now=now, message=gettext("Too many new rooms."))


def room_lookup_quota_take(*, address: str, now: datetime) -> None:
    """Count one look-up of a room by its code for the address.

    Raises:
        RateLimited: the quota is spent (nothing was counted).
    """
    quota = Quota("room-lookups-by-address", settings.ROOM_LOOKUPS_PER_MINUTE_PER_ADDRESS, MINUTE)
    _take([(quota, address)], now=now, message=gettext("Too many rooms looked up."))


def _take(takes: Sequence[tuple[Quota, str]], *, now: datetime, message: str) -> None:
    quota_take(cache, takes, now=now, message=message, unreachable_passes=True)
