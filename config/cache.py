"""Django's Redis cache (``CACHES``), its connections kept by the process instead of by each request.

Django keeps a cache object per thread and per async context (``caches`` is an asgiref ``Local``), and
each object makes a client of its own with a connection pool of its own: under ASGI nearly every request
and every socket's database call got a new object, hence a new connection to Redis (a TCP connect and
redis-py's handshake, a few round trips) for its first cache call, closed again as it ended. Here every
object of one configuration shares one client, whose pool is thread-safe and reuses its connections.
That client hands out one redis-py client per pool too (:class:`SharedClient`), where Django's makes one
for every call.
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient
from django.utils.functional import cached_property
from redis import Redis

_lock = threading.Lock()


class SharedClient(RedisCacheClient):
    """Django's client, whose ``get_client`` hands out one ``redis.Redis`` per connection pool instead of a
    new one for every cache call: making one costs some 0.2 ms of CPU (its two tables of a few hundred
    response callbacks), as much as a quota's round trip to Redis (an arcade move takes one). A
    ``redis.Redis`` is safe to share between threads (it takes a pooled connection for each command)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:  # Any: Django's servers and OPTIONS
        super().__init__(*args, **kwargs)
        self._shared: dict[int, Redis] = {}  # by its pool's id

    def get_client(self, key: object = None, *, write: bool = False) -> Redis:
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]  # Django's own (its stubs leave it out)
        client = self._shared.get(id(pool))
        if client is None:  # two threads at once may each make one: either serves
            client = self._shared[id(pool)] = self._client(connection_pool=pool)  # type: ignore[attr-defined]
        return client


_clients: dict[str, RedisCacheClient] = {}


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
                client = _clients[key] = SharedClient(servers, **options)
            return client
