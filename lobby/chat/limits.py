"""The chat's quota per client address, beside its limit per player (``lobby.chat.services.RATE_MESSAGES`` in
``RATE_WINDOW``, counted in the database): the guests made at one address are many, each costing nothing, so
one address may write at most :data:`MESSAGES_PER_MINUTE_PER_ADDRESS` messages a minute, whoever writes them
(four times what one player may; many people may share an address). Counted in Django's cache (Redis when
``REDIS_URL`` is set, so across processes); while the cache is unreachable nothing is counted (a warning is
logged) and the message goes on.
"""

from __future__ import annotations

from datetime import datetime

from django.core.cache import cache
from django.utils.translation import gettext

from common.ratelimit import Quota, quota_take

MESSAGES_PER_MINUTE_PER_ADDRESS = 120


def chat_address_quota_take(*, address: str, now: datetime) -> None:
    """Count one chat message written from the client ``address``.

    Raises:
        RateLimited: the quota is spent (nothing was counted).
    """
    quota = Quota("chat-by-address", MESSAGES_PER_MINUTE_PER_ADDRESS, 60)
    quota_take(cache, [(quota, address)], now=now, message=gettext("Too many chat messages from your address."),
               unreachable_passes=True)
