"""Limits on creating and looking up rooms: quotas no person meets, answered with 429 and Retry-After."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client, override_settings
from django.utils import timezone

from common.errors import RateLimited
from common.ratelimit import Quota, quota_take
from lobby.models import Room
from players.models import Player
from tests.ratings.ratingkit import at

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]


def device(address: str = "10.0.0.1") -> Client:
    client = Client(enforce_csrf_checks=True, REMOTE_ADDR=address)
    client.get("/api/session")
    return client


def new_room(client: Client):
    return client.post("/api/rooms", {}, content_type="application/json",
                       HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)


def assert_rate_limited(response, *, window: int) -> None:
    assert response.status_code == 429
    assert response.json()["code"] == "rate_limited" and response.json()["message"]
    assert 0 < int(response["Retry-After"]) <= 2 * window


# --- over HTTP, with the default limits ----------------------------------------------------------
def test_the_default_limits():
    assert settings.ROOMS_PER_HOUR_PER_DEVICE == 30
    assert settings.ROOMS_PER_HOUR_PER_ADDRESS == 120
    assert settings.ROOM_LOOKUPS_PER_MINUTE_PER_ADDRESS == 120


def test_one_device_creates_at_most_its_hourly_rooms():
    phone = device()
    for i in range(settings.ROOMS_PER_HOUR_PER_DEVICE):
        assert new_room(phone).status_code == 201, f"room {i + 1}"
    assert_rate_limited(new_room(phone), window=3600)
    assert Room.objects.count() == settings.ROOMS_PER_HOUR_PER_DEVICE
    # Another device behind the same address is not held back by this one.
    assert new_room(device()).status_code == 201


def test_refused_forms_do_not_count_against_the_quota():
    """Thirty invalid forms and a person can still create a room: only what is created is counted."""
    phone, fresh = device(), device("10.0.0.9")
    for _ in range(settings.ROOMS_PER_HOUR_PER_ADDRESS + 1):  # past both quotas, were they counted
        refused = phone.post("/api/rooms", {"turn_seconds": 7}, content_type="application/json",
                             HTTP_X_CSRFTOKEN=phone.cookies["csrftoken"].value)
        assert refused.status_code == 400 and refused.json()["code"] == "bad_rules"
    assert new_room(phone).status_code == 201
    # A device without a player yet: its refused form makes no guest player either.
    players = Player.objects.count()
    refused = fresh.post("/api/rooms", {"cpu_level": 9}, content_type="application/json",
                         HTTP_X_CSRFTOKEN=fresh.cookies["csrftoken"].value)
    assert refused.status_code == 400 and Player.objects.count() == players


def test_one_address_creates_at_most_its_hourly_rooms_whatever_the_devices():
    remaining = settings.ROOMS_PER_HOUR_PER_ADDRESS
    while remaining:  # as many devices as it takes, each below its own limit
        phone = device("10.0.0.2")
        for _ in range(min(settings.ROOMS_PER_HOUR_PER_DEVICE, remaining)):
            assert new_room(phone).status_code == 201
            remaining -= 1
    players = Player.objects.count()
    fresh = device("10.0.0.2")  # a device dropping its cookie is still the same address
    assert_rate_limited(new_room(fresh), window=3600)
    assert Player.objects.count() == players, "a refused request makes no guest player"
    assert new_room(device("10.0.0.3")).status_code == 201


def test_one_address_looks_up_at_most_its_rooms_a_minute(monkeypatch):
    code = new_room(device("10.0.0.4")).json()["code"]
    # Every look-up at one instant, mid-minute: a loop that crossed the minute on a slow machine would see
    # the last minute's count weighted down (the sliding estimate) and let one more through.
    instant = timezone.now().replace(second=30)
    monkeypatch.setattr(timezone, "now", lambda: instant)
    guesser = Client(REMOTE_ADDR="10.0.0.5")
    for i in range(settings.ROOM_LOOKUPS_PER_MINUTE_PER_ADDRESS):
        assert guesser.get(f"/api/rooms/Z{i:05d}").status_code == 404
    assert_rate_limited(guesser.get(f"/api/rooms/{code}"), window=60)
    assert Client(REMOTE_ADDR="10.0.0.6").get(f"/api/rooms/{code}").status_code == 200


def test_the_limits_are_settings(settings):
    settings.ROOMS_PER_HOUR_PER_DEVICE = 2
    phone = device()
    assert [new_room(phone).status_code for _ in range(3)] == [201, 201, 429]
    settings.ROOMS_PER_HOUR_PER_DEVICE = 3
    assert new_room(phone).status_code == 201


def test_the_limits_come_from_the_environment():
    env = {**os.environ, "ROOMS_PER_HOUR_PER_DEVICE": "500", "ROOMS_PER_HOUR_PER_ADDRESS": "2000",
           "ROOM_LOOKUPS_PER_MINUTE_PER_ADDRESS": "9000", "DJANGO_SETTINGS_MODULE": "config.settings"}
    script = ("from django.conf import settings as s; "
              "print(s.ROOMS_PER_HOUR_PER_DEVICE, s.ROOMS_PER_HOUR_PER_ADDRESS, s.ROOM_LOOKUPS_PER_MINUTE_PER_ADDRESS)")
    out = subprocess.run([sys.executable, "-c", script], env=env, cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["500", "2000", "9000"]


# --- quotas with a fixed clock -------------------------------------------------------------------
HOURLY_3 = Quota("test-hourly", allowed=3, window_seconds=3600)


def take(quota: Quota, caller: str, seconds: float) -> int | None:
    """None when the event is counted, else the refusal's retry_after."""
    try:
        quota_take(cache, [(quota, caller)], now=at(seconds))
    except RateLimited as exc:
        return exc.retry_after
    return None


@pytest.mark.parametrize("start", [0, 1, 1799.5, 3599, 3600 * 5 + 42])
@pytest.mark.parametrize("allowed", [1, 3, 30])
def test_retry_after_is_exactly_when_the_next_event_is_heard(start, allowed):
    quota = Quota(f"test-{allowed}", allowed=allowed, window_seconds=3600)
    assert all(take(quota, "ann", start + i) is None for i in range(allowed))
    wait = take(quota, "ann", start + allowed)
    assert wait is not None and 0 < wait <= 2 * 3600
    # Refused attempts meanwhile count for nothing: they neither move the time nor use the quota.
    assert take(quota, "ann", start + allowed + wait - 1) is not None
    assert take(quota, "ann", start + allowed + wait - 1) is not None
    assert take(quota, "ann", start + allowed + wait) is None


def test_quota_counts_per_caller_and_slides():
    assert [take(HOURLY_3, "ann", s) for s in (0, 1000, 2000)] == [None, None, None]
    assert take(HOURLY_3, "ann", 3000) is not None
    assert take(HOURLY_3, "bob", 3000) is None
    # An hour and more later, the old events have slid out of the window.
    assert [take(HOURLY_3, "ann", 7300 + s) for s in (0, 1, 2)] == [None, None, None]


def test_a_refusal_counts_nothing_against_the_other_quotas():
    other = Quota("test-other", allowed=5, window_seconds=60)
    for s in range(3):
        take(HOURLY_3, "ann", s)
    with pytest.raises(RateLimited):
        quota_take(cache, [(other, "10.0.0.1"), (HOURLY_3, "ann")], now=at(10))
    assert [take(other, "10.0.0.1", 11 + s) for s in range(5)] == [None] * 5
    assert take(other, "10.0.0.1", 17) is not None


def test_concurrent_takes_never_overshoot():
    quota = Quota("test-threads", allowed=30, window_seconds=3600)
    counted = []
    barrier = threading.Barrier(8)

    def hammer():
        barrier.wait()
        counted.extend(take(quota, "ann", 5) is None for _ in range(10))

    threads = [threading.Thread(target=hammer) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(counted) == 80 and counted.count(True) == 30


def test_a_quota_allows_at_least_one_event():
    with pytest.raises(ValueError):
        Quota("test-none", allowed=0, window_seconds=60)
    with pytest.raises(ValueError):
        Quota("test-instant", allowed=1, window_seconds=0)


# --- across processes: the real Redis ------------------------------------------------------------
@pytest.mark.redis
def test_two_processes_share_one_quota_through_redis():
    """Two cache clients on one Redis, as two server processes have: one count, exactly the quota."""
    import redis
    from django.core.cache.backends.redis import RedisCache

    prefix = f"test-quota-{os.getpid()}-{threading.get_ident()}"
    first, second = (RedisCache(os.environ["REDIS_URL"], {"KEY_PREFIX": prefix}) for _ in range(2))
    quota = Quota("test-redis", allowed=30, window_seconds=3600)
    now = at()
    counted: list[bool] = []
    barrier = threading.Barrier(8)

    def hammer(store):
        barrier.wait()
        for _ in range(10):
            try:
                quota_take(store, [(quota, "10.0.0.1")], now=now)
                counted.append(True)
            except RateLimited:
                counted.append(False)

    try:
        threads = [threading.Thread(target=hammer, args=(store,)) for store in [first, second] * 4]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert len(counted) == 80 and counted.count(True) == 30
        with pytest.raises(RateLimited):
            quota_take(second, [(quota, "10.0.0.1")], now=now + timedelta(minutes=1))
    finally:
        # Only this test's keys: the Redis database is shared with other runs and other tests.
        client = redis.Redis.from_url(os.environ["REDIS_URL"])
        for key in client.scan_iter(f"{prefix}:*"):
            client.delete(key)


def test_rooms_are_still_made_and_found_while_the_cache_is_unreachable(caplog):
    """A quota is no reason to refuse people while Redis is away: the requests go through uncounted."""
    unreachable = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                               "LOCATION": "redis://127.0.0.1:1/0"}}  # nothing listens on port 1
    with override_settings(CACHES=unreachable):
        phone = device()
        created = new_room(phone)
        assert created.status_code == 201
        assert phone.get(f"/api/rooms/{created.json()['code']}").status_code == 200
    warnings = [r.getMessage() for r in caplog.records if r.name == "common.ratelimit"]
    # The address's rooms, the new guest, the new player's first room, then the look-up.
    assert [w.split(" not counted")[0] for w in warnings] == [
        "rooms-by-address", "guests-by-address", "rooms-by-player", "room-lookups-by-address"]
    assert all("the cache is unreachable" in w for w in warnings)
