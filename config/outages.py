"""Which part of the server an exception says is unreachable: the database, or the cache (Redis).

A request that needs a part that is down is answered 503 with ``{"code": "unavailable", "message"}``
naming the part (``config.api`` inside a REST view, ``config.errors`` for anything else), and logged as
one line (``config.logfilters``): an outage is not a bug, and a traceback per request while it lasts
would bury the log.
"""

from __future__ import annotations

from django.db import InterfaceError, OperationalError
from django.utils.translation import gettext_lazy as _
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

# The part's name (as the health check names it) and the sentence a person reads (in the language active
# where it is answered: ``str(PARTS[part])``).
PARTS = {
    "database": _("The server cannot reach its database just now: please try again in a moment."),
    "cache": _("The server cannot reach its cache (Redis) just now: please try again in a moment."),
}


def unreachable_part(exc: BaseException | None) -> str | None:
    """``"database"`` or ``"cache"`` when ``exc`` (or an exception it was raised from) says that part
    cannot be reached; None for anything else (a bug, a refusal)."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, (OperationalError, InterfaceError)):
            return "database"
        if isinstance(exc, (RedisConnectionError, RedisTimeoutError)):
            return "cache"
        exc = exc.__cause__ or exc.__context__
    return None
