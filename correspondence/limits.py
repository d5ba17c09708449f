"""Correspondence seeks' quotas (against scripts, far above what a person does): seeks made per player and per
client address in an hour (``SEEKS_PER_HOUR_PER_PLAYER``, ``SEEKS_PER_HOUR_PER_ADDRESS``, read at each call),
counted in Django's cache (Redis when ``REDIS_URL`` is set, so they hold across processes), refused ones too:
a make-and-delete loop is what this stops. An accepted seek is a new room: it counts against the room quotas
of both players and the accepter's address (``lobby.rooms.limits.rooms_create_quota_take``), as an accepted
challenge does."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext

from common.ratelimit import player_and_address, quota_take

HOUR = 3600


def seek_create_quota_take(*, player_id: str, address: str | None, now: datetime) -> None:
    """Count one new seek against the seeker and the client address (the latter when given).

    Raises:
        RateLimited: a quota is spent (nothing was counted).
    """
    takes = player_and_address("seeks", player_id=player_id, per_player=settings.SEEKS_PER_HOUR_PER_PLAYER,
                               address=address, per_address=settings.SEEKS_PER_HOUR_PER_ADDRESS, window_seconds=HOUR)
    quota_take(cache, takes, now=now, message=gettext("Too many correspondence seeks."))
