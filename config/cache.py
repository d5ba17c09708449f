"""Django's Redis cache (``CACHES``), its connections kept by the process instead of by each request.

Django keeps a cache object per thread and per async context (``caches`` is an asgiref ``Local``), and
each object makes a client of its own with a connection pool of its own: under ASGI nearly every request
and every socket's database call got a new object, hence a new connection to Redis (a TCP connect and
redis-py's handshake, a few round trips) for its first cache call, closed again as it ended. Here every
object of one configuration shares one client, whose pool is thread-safe and reuses its connections.
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient
from django.utils.functional import cached_property

_clients: dict[str, RedisCacheClient] = {}
_lock = threading.Lock()


class RedisCache(DjangoRedisCache):
    @cached_property
    def _cache(self) -> RedisCacheClient:
        # Django's own attributes (set by its __init__; its stubs leave them out). Any: the OPTIONS setting.
        servers: list[str] = self._servers  # type: ignore[attr-defined]
        options: dict[str, Any] = self._options  # type: ignore[attr-defined]
        key = repr((servers, sorted(options.items())))
        with _lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = RedisCacheClient(servers, **options)
            return client
