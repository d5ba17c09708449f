"""A quota whose store (Redis) cannot be reached: raised by default, let through when the caller says so."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import pytest
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

from common.ratelimit import Quota, quota_take

NOW = datetime(2026, 12, 3, 12, tzinfo=UTC)
UNREACHABLE = RedisCache("redis://127.0.0.1:1/0", {})  # nothing listens on port 1
TAKES = [(Quota("test-by-address", 1, 60), "10.0.0.1"), (Quota("test-by-player", 1, 60), "p")]


def test_an_unreachable_store_is_raised_unless_the_caller_lets_the_event_through():
    with pytest.raises(RedisError):
        quota_take(UNREACHABLE, TAKES, now=NOW, message="Too many.")


def test_an_event_let_through_is_counted_nowhere_and_logged_with_its_quotas(caplog):
    with caplog.at_level(logging.WARNING, logger="common.ratelimit"):
        for _ in range(3):  # over the quota of 1, were it counted
            quota_take(UNREACHABLE, TAKES, now=NOW, message="Too many.", unreachable_passes=True)
    warnings = [r.getMessage() for r in caplog.records if r.name == "common.ratelimit"]
    assert len(warnings) == 3
    assert all(w.startswith("test-by-address, test-by-player not counted: the cache is unreachable") for w in warnings)
