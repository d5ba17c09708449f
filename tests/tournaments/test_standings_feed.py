"""The standings feed: however often an arena changes, each socket gets at most about two frames a second,
and the last change always arrives."""

from __future__ import annotations

import asyncio
import itertools
import time

import pytest

from tournaments.realtime import feed as feed_module
from tournaments.realtime.feed import StandingsFeed


class Reader:
    def __init__(self, loop):
        self.loop = loop
        self.at: list[float] = []
        self.seen: list[int] = []

    async def arena_updated(self, view):
        self.at.append(self.loop.time())
        self.seen.append(view)


@pytest.mark.django_db(transaction=True)  # the read goes through offload, which tidies the thread's connections
async def test_a_busy_arena_reaches_each_socket_at_most_twice_a_second(monkeypatch):
    version = {"now": 0}
    reads: list[float] = []

    def arena_view(arena_id):
        reads.append(time.monotonic())
        return version["now"]

    monkeypatch.setattr(feed_module, "arena_view", arena_view)
    loop = asyncio.get_running_loop()
    feed = StandingsFeed(loop)
    readers = [Reader(loop) for _ in range(3)]
    for reader in readers:
        feed.subscribe(7, reader)
    began = loop.time()
    while loop.time() - began < 2.5:  # a change every 20 ms for 2.5 s
        version["now"] += 1
        feed.refresh_soon(7)
        await asyncio.sleep(0.02)
    await asyncio.sleep(1.2)
    # The arena is read (and so sent to each socket) at least REFRESH_GAP apart, however busy the machine.
    gaps = [b - a for a, b in itertools.pairwise(reads)]
    assert min(gaps) >= feed_module.REFRESH_GAP - 0.01, gaps
    assert 3 <= len(reads) <= 7
    for reader in readers:
        assert len(reader.at) == len(reads) == feed.reads  # one read for all the sockets of the process
        assert reader.seen[-1] == version["now"]  # the last change is shown
    await feed.close()
