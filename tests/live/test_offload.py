"""live.offload: the lanes database work leaves the event loop by. ``db`` is Channels' one thread at
``DB_THREADS`` 1 and a pool of its own above; ``pairing`` shares ``db`` on SQLite; ``request`` runs in the
request's sync thread."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from live import offload as offload_module
from live.offload import offload

# A lane's thread closes its stale connections around each call (Channels' wrapper): database access.
pytestmark = pytest.mark.django_db

def thread_name() -> str:
    return threading.current_thread().name


@pytest.fixture
def fresh_lanes(monkeypatch):
    """Pools of this test's own, shut down after it (the process's stay as they were)."""
    lanes: dict = {}
    monkeypatch.setattr(offload_module, "_executors", lanes)
    yield lanes
    for executor in lanes.values():
        executor.shutdown(wait=True)


async def test_every_lane_runs_off_the_event_loop(settings):
    settings.DB_THREADS = 1
    loop_thread = threading.get_ident()
    for lane in ("db", "pairing", "request"):
        assert await offload(threading.get_ident, lane=lane)() != loop_thread


async def test_more_db_threads_make_a_pool_of_the_lanes_own_which_pairing_shares_on_sqlite(settings, fresh_lanes):
    settings.DB_THREADS = 2
    assert (await offload(thread_name)()).startswith("db")
    if connection.vendor == "postgresql":  # pairing's short transactions have threads of their own
        assert (await offload(thread_name, lane="pairing")()).startswith("pairing")
        assert sorted(fresh_lanes) == ["db", "pairing"]
    else:  # SQLite: one writer at a time
        assert (await offload(thread_name, lane="pairing")()).startswith("db")
        assert list(fresh_lanes) == ["db"]
    assert fresh_lanes["db"]._max_workers == 2
