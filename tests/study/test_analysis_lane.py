"""GET /api/analysis in its bounded lane of the CPU workers (games.cpu_pool): never computed on an HTTP
thread, never holding one while it waits, and refused 503 ``busy`` when the process's lane is full."""

from __future__ import annotations

import asyncio
import threading

import pytest
from django.core.cache import cache

from config.http import AsyncHandler, OneHopHandler, StreamsApart, ThreadedHttp
from games import cpu_pool
from games.engine.verdicts import board_verdict
from tests.config.test_http import HOST

pytestmark = pytest.mark.django_db(transaction=True)


async def get(app, path: str):
    from channels.testing import HttpCommunicator

    return await HttpCommunicator(app, "GET", path, headers=HOST).get_response(timeout=20)


async def test_a_full_lane_refuses_busy_while_other_requests_are_served(settings, monkeypatch):
    settings.ANALYSIS_BOARD_WORKERS, settings.ANALYSIS_BOARD_QUEUE = 1, 0
    cache.clear()
    entered, release, where = threading.Event(), threading.Event(), []

    def held(position, budget_s):  # the lane's job, held until the test lets it go
        where.append(threading.current_thread().name)
        entered.set()
        assert release.wait(15)
        return board_verdict(position, budget_s=0.01)

    monkeypatch.setattr(cpu_pool, "_board", held, raising=False)
    rest = ThreadedHttp(OneHopHandler(), 1)
    app = StreamsApart(streams=AsyncHandler(), rest=rest)  # config.asgi's, one kept HTTP thread
    first = asyncio.ensure_future(get(app, "/api/analysis?record=a1,b2"))
    try:
        assert await asyncio.to_thread(entered.wait, 15)
        refused = await get(app, "/api/analysis?record=c3,d4")
        headers = dict(refused["headers"])
        assert refused["status"] == 503 and b'"code": "busy"' in refused["body"] and int(headers[b"Retry-After"]) >= 1
        # The held answer takes no kept HTTP thread: another client's request is served on it meanwhile.
        assert rest._pool().qsize() == 1
        assert (await get(app, "/api/session"))["status"] == 200
        assert not first.done()
    finally:
        release.set()
    answer = await first
    assert answer["status"] == 200 and b'"verdict"' in answer["body"]
    assert not where[0].startswith("http-")  # computed in the lane, not on the request's thread
    # The lane is free again: the next answer is computed.
    assert (await get(app, "/api/analysis?record=c3,d4"))["status"] == 200
    assert cpu_pool.board_jobs() == 0
