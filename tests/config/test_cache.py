"""config.cache: Django's Redis cache, one client (and its pool of connections) for the whole process."""

from __future__ import annotations

import os
import threading
import uuid
from datetime import UTC, datetime, timedelta

import pytest
import redis
from django.core.cache import cache, caches

from common.errors import RateLimited
from common.ratelimit import Quota, quota_take
from lobby.rooms.limits import rooms_create_quota_take

pytestmark = pytest.mark.redis
T0 = datetime(2026, 12, 2, 12, 0, 30, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _redis_cache(settings):
    """The deployed cache on REDIS_URL under a key prefix of this test's own (the suite's is local memory)."""
    settings.CACHES = {"default": {"BACKEND": "config.cache.RedisCache", "LOCATION": os.environ["REDIS_URL"],
                                   "KEY_PREFIX": f"test-{uuid.uuid4().hex[:8]}"}}


def test_every_cache_object_of_the_process_shares_one_client():
    # Django makes a cache object per thread and per async context: each used to make a client and
    # connections of its own, for every request.
    made: list[object] = []

    def in_a_thread() -> None:
        made.append(caches["default"]._cache)

    threads = [threading.Thread(target=in_a_thread) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(made) == 3 and all(client is cache._cache for client in made)
    # and one redis-py client, where Django's made one for every call (0.2 ms of CPU each: an arcade move's quota)
    assert cache._cache.get_client(write=True) is made[0].get_client(write=True)  # type: ignore[attr-defined]


def test_a_quota_counted_again_and_again_opens_no_connection(monkeypatch):
    now = T0
    rooms_create_quota_take(address="10.9.9.9", player_ids=["p"], now=now)  # the first may connect
    connects = []
    connect = redis.connection.Connection._connect  # a new socket (connect() is asked of every pooled one)
    monkeypatch.setattr(redis.connection.Connection, "_connect",
                        lambda self: connects.append(self) or connect(self))  # counted, then made as ever
    for _ in range(5):  # five requests one after another, each on a thread (and a cache object) of its own
        thread = threading.Thread(target=lambda: rooms_create_quota_take(address="10.9.9.9", player_ids=["p"], now=now))
        thread.start()
        thread.join()
    assert connects == []


def test_quotas_on_redis_count_as_anywhere_else_in_one_round_trip():
    """The pipelined take: every quota counted, or (one spent) none, with the wait of the spent one."""
    hour, minute = Quota("t-hour", 3, 3600), Quota("t-minute", 2, 60)
    quota_take(cache, [(hour, "a"), (minute, "a")], now=T0)
    quota_take(cache, [(hour, "a"), (minute, "a")], now=T0 + timedelta(seconds=1))
    with pytest.raises(RateLimited) as refused:
        quota_take(cache, [(hour, "a"), (minute, "a")], now=T0 + timedelta(seconds=2))
    assert refused.value.retry_after >= 1
    quota_take(cache, [(hour, "a")], now=T0 + timedelta(seconds=3))  # the refusal counted nothing: 3rd of 3
    with pytest.raises(RateLimited):
        quota_take(cache, [(hour, "a")], now=T0 + timedelta(seconds=4))
    quota_take(cache, [(hour, "b"), (minute, "b")], now=T0)  # another caller: counted apart
    # The next minute weighs the last one by how much of it the sliding window still covers.
    with pytest.raises(RateLimited):
        quota_take(cache, [(minute, "a")], now=T0 + timedelta(seconds=31))
    quota_take(cache, [(minute, "a")], now=T0 + timedelta(seconds=120))
