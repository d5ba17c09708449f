"""Rate limits: a token bucket per connection, and quotas shared by every process through a cache.

:class:`TokenBucket` lives in one process (a websocket's frames). :func:`quota_take` counts in a shared
store (Django's cache: Redis when ``REDIS_URL`` is set), so a quota holds across server processes.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from redis.exceptions import RedisError

from common.errors import RateLimited

log = logging.getLogger(__name__)


class TokenBucket:
    """Allow ``rate`` events a second on average, with bursts of up to ``burst`` events.

    ``clock`` returns seconds (monotonic); tests inject their own.
    """

    def __init__(self, *, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = burst
        self.stamp = clock()

    def allow(self) -> bool:
        """Take one token if there is one; False means the event should be refused."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


# --- quotas counted in a shared store ------------------------------------------------------------
class CounterStore(Protocol):
    """The part of a cache that quotas use; Django's cache backends (Redis, local memory) have it.

    ``incr`` and ``decr`` must be atomic (Redis ``INCRBY``; the local-memory cache holds a lock).
    """

    # Any: a cache holds values of any type (Django's cache API).
    def add(self, key: str, value: Any, timeout: float | None = ...) -> bool: ...

    def get(self, key: str, default: Any = ...) -> Any: ...

    def incr(self, key: str, delta: int = ...) -> int: ...

    def decr(self, key: str, delta: int = ...) -> int: ...


@dataclass(frozen=True, slots=True)
class Quota:
    """At most ``allowed`` events per ``window_seconds`` for each caller, under one ``scope`` name.

    Counted as a sliding window estimated from two fixed ones (this window, plus the last one weighted by
    how much of it the sliding window still covers): one atomic increment per event, so concurrent
    requests in several processes cannot overshoot, and no double burst at a window's edge.
    """

    scope: str
    allowed: int
    window_seconds: int

    def __post_init__(self) -> None:
        if self.allowed < 1 or self.window_seconds < 1:
            raise ValueError(f"a quota allows at least one event in at least one second: {self}")


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MS = timedelta(milliseconds=1)


def player_and_address(scope: str, *, player_id: str, per_player: int, address: str | None, per_address: int,
                       window_seconds: int) -> list[tuple[Quota, str]]:
    """The takes of an action counted against the player (``{scope}-by-player``) and, when it is known, the
    client address (``{scope}-by-address``), where a new player costs nothing: for :func:`quota_take`."""
    takes = [(Quota(f"{scope}-by-player", per_player, window_seconds), player_id)]
    if address is not None:
        takes.append((Quota(f"{scope}-by-address", per_address, window_seconds), address))
    return takes


def quota_take(
    store: CounterStore, takes: Iterable[tuple[Quota, str]], *, now: datetime, message: str | None = None,
    unreachable_passes: bool = False,
) -> None:
    """Count one event against each ``(quota, caller)``; when any quota is spent, count none of them.

    ``caller`` is any text naming who is counted (an address, a player id); only its hash is stored.
    ``unreachable_passes``: while the store (Redis) cannot be reached, count nothing, log a warning naming
    the quotas, and let the event through (where the action matters more than its limit for those moments:
    playing, chatting, finding a room); otherwise the store's error is raised.

    Raises:
        RateLimited: a quota is spent (its message starts with ``message``); ``retry_after`` is the whole
            seconds until that quota takes an event again (it does then, unless others were counted meanwhile).
        redis.exceptions.RedisError: the store is unreachable, and ``unreachable_passes`` is False.
    """
    if not unreachable_passes:
        _quota_take(store, list(takes), now=now, message=message)
        return
    takes = list(takes)
    try:
        _quota_take(store, takes, now=now, message=message)
    except RedisError as exc:
        log.warning("%s not counted: the cache is unreachable (%s)", ", ".join(q.scope for q, _ in takes), exc)


def _quota_take(store: CounterStore, takes: list[tuple[Quota, str]], *, now: datetime, message: str | None) -> None:
    now_ms = (now - _EPOCH) // _MS  # whole milliseconds: the window arithmetic below is exact
    client = _redis_client(store)
    if client is not None:
        _take_all_at_once(store, client, takes, now_ms=now_ms, message=message)
        return
    taken: list[str] = []
    try:
        for quota, caller in takes:
            taken.append(_take(store, quota, caller, now_ms=now_ms, message=message))
    except RateLimited:
        for key in taken:
            _give_back(store, key)
        raise


def _redis_client(store: CounterStore) -> Any | None:  # Any: redis-py's client (this module knows no Django)
    """The Redis client behind ``store`` when it is Django's Redis cache (its ``_cache`` hands out clients,
    its ``make_and_validate_key`` names their keys), else None."""
    get_client = getattr(getattr(store, "_cache", None), "get_client", None)
    if get_client is None or not hasattr(store, "make_and_validate_key"):
        return None
    return get_client(write=True)


def _take_all_at_once(store: Any, client: Any, takes: list[tuple[Quota, str]], *, now_ms: int,  # Any: as above
                      message: str | None) -> None:
    """:func:`quota_take` on Django's Redis cache in one round trip: every counter added, incremented and
    its last window read in one pipeline (each take's three calls, then the next's), then judged in order
    as :func:`_take` judges one; when one is spent, every counter is given back (a second round trip).
    Django's own calls cost four round trips a take (its ``incr`` asks first whether the key exists)."""
    keys = [store.make_and_validate_key(_counter_key(quota, caller, now_ms // (quota.window_seconds * 1000)))
            for quota, caller in takes]
    pipeline = client.pipeline(transaction=False)
    for (quota, caller), key in zip(takes, keys, strict=True):
        window_ms = quota.window_seconds * 1000
        last = store.make_and_validate_key(_counter_key(quota, caller, now_ms // window_ms - 1))
        pipeline.set(key, 0, ex=2 * quota.window_seconds + 1, nx=True)  # outlives the next window
        pipeline.incr(key)
        pipeline.get(last)
    answers = pipeline.execute()
    for i, (quota, _caller) in enumerate(takes):
        count, before = int(answers[3 * i + 1]), int(answers[3 * i + 2] or 0)
        into = now_ms % (quota.window_seconds * 1000)
        if not _spent(quota, before=before, count=count, into=into):
            continue
        giving_back = client.pipeline(transaction=False)
        for key in keys:
            giving_back.decr(key)
        giving_back.execute()
        raise _refusal(quota, before=before, count=count, into=into, message=message)


def _counter_key(quota: Quota, caller: str, window_index: int) -> str:
    digest = hashlib.sha256(caller.encode()).hexdigest()[:32]
    return f"quota:{quota.scope}:{digest}:{window_index}"


def _give_back(store: CounterStore, key: str) -> None:
    with contextlib.suppress(ValueError):  # the counter expired meanwhile: nothing to give back
        store.decr(key)


def _take(store: CounterStore, quota: Quota, caller: str, *, now_ms: int, message: str | None) -> str:
    """Count one event; return the counter's key, or undo it and raise RateLimited."""
    window_ms = quota.window_seconds * 1000
    index, into = divmod(now_ms, window_ms)
    key = _counter_key(quota, caller, index)
    # The counter must outlive the next window, which weighs it as its previous one.
    store.add(key, 0, timeout=2 * quota.window_seconds + 1)
    count = store.incr(key)
    before = int(store.get(_counter_key(quota, caller, index - 1), 0) or 0)
    if not _spent(quota, before=before, count=count, into=into):
        return key
    _give_back(store, key)
    raise _refusal(quota, before=before, count=count, into=into, message=message)


def _spent(quota: Quota, *, before: int, count: int, into: int) -> bool:
    """Whether ``count`` events in this window (the one just counted included), ``before`` in the last one
    and ``into`` ms of this window passed are over the quota: before * (window - into) / window + count >
    allowed, multiplied out to stay in integers."""
    window_ms = quota.window_seconds * 1000
    return before * (window_ms - into) + count * window_ms > quota.allowed * window_ms


def _refusal(quota: Quota, *, before: int, count: int, into: int, message: str | None) -> RateLimited:
    """The refusal of the event that made ``count`` (given back): when one more would fit."""
    wait_ms = _wait_ms(quota, before=before, count=count - 1, into=into)
    return RateLimited(max(1, -(-wait_ms // 1000)), message=message)


def _wait_ms(quota: Quota, *, before: int, count: int, into: int) -> int:
    """Milliseconds until one more event fits, if no other is counted meanwhile.

    ``count`` events are in this window, ``before`` in the last one, ``into`` ms of this window passed.
    """
    window_ms = quota.window_seconds * 1000
    room = quota.allowed - 1 - count
    if room >= 0:
        # It fits later in this window, once the last window weighs little enough (before > 0 here):
        # before * (window - t) <= room * window.
        return window_ms - (room * window_ms) // before - into
    # Not in this window: in the next one, this window's count is the one that fades out.
    return (window_ms - into) + window_ms - ((quota.allowed - 1) * window_ms) // count
