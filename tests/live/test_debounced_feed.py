"""The one debounced feed, as the lobby's lists and an arena's standings use it: however often what a key
shows changes, each socket gets at most about two frames a second, one read serves every socket of the
loop, and the last change always arrives."""

from __future__ import annotations

import asyncio
import itertools

import pytest

from lobby.events import LOBBY_GROUP
from lobby.realtime import feed as lobby_feed
from lobby.realtime.feed import LobbyFeed
from tournaments.realtime import feed as standings_feed
from tournaments.realtime.feed import StandingsFeed


class Reader:
    """A socket of either page: it keeps when it was sent what."""

    def __init__(self, loop):
        self.loop = loop
        self.at: list[float] = []
        self.seen: list[int] = []

    async def arena_updated(self, view):
        self.at.append(self.loop.time())
        self.seen.append(view)

    async def lists_updated(self, lists):
        await self.arena_updated(lists)


async def until(condition, timeout=30.0):
    """Wait for ``condition()`` (a busy machine delays the feed's reads, never reorders them)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        assert loop.time() < deadline, "timed out"
        await asyncio.sleep(0.01)


FEEDS = {
    # the feed, the module whose read is replaced, the read's name there, a key
    "standings": (StandingsFeed, standings_feed, "arena_view", 7),
    "lobby lists": (LobbyFeed, lobby_feed, "lobby_lists", LOBBY_GROUP),
}


@pytest.mark.django_db(transaction=True)  # the read goes through offload, which tidies the thread's connections
@pytest.mark.parametrize("kind", list(FEEDS))
async def test_a_busy_key_reaches_each_socket_at_most_twice_a_second(monkeypatch, kind):
    feed_class, module, read_name, key = FEEDS[kind]
    version = {"now": 0}
    reads: list[float] = []

    def read(*args, **kwargs):
        # When the feed started this read (its loop's time, kept for the key until the read returns): the
        # read itself runs in a database thread, a busy machine's few ms or tens of ms later each time.
        reads.append(feed._last[key])
        return version["now"]

    monkeypatch.setattr(module, read_name, read)
    loop = asyncio.get_running_loop()
    feed = feed_class(loop)
    readers = [Reader(loop) for _ in range(3)]
    for reader in readers:
        feed.subscribe(key, reader)
    began = loop.time()
    while loop.time() - began < 2.5:  # a change every 20 ms for 2.5 s
        version["now"] += 1
        feed.refresh_soon(key)
        await asyncio.sleep(0.02)
    await until(lambda: all(reader.seen and reader.seen[-1] == version["now"] for reader in readers))
    await asyncio.sleep(standings_feed.REFRESH_GAP + 0.2)  # nothing more comes
    # The key's reads start (and so each socket is sent) at least REFRESH_GAP apart, however busy the machine.
    gaps = [b - a for a, b in itertools.pairwise(reads)]
    assert min(gaps) >= standings_feed.REFRESH_GAP - 0.01, gaps
    assert 2 <= len(reads) <= 7  # at most about two a second over the 2.5 s, and more than the first
    for reader in readers:
        assert len(reader.at) == len(reads) == feed.reads  # one read for all the sockets of the process
        assert reader.seen[-1] == version["now"]  # the last change is shown
    await feed.close()


@pytest.mark.django_db(transaction=True)
async def test_a_change_soon_after_a_read_waits_out_the_gap_and_other_keys_do_not(monkeypatch):
    reads: list[tuple[int, float]] = []
    # When the feed started each read (its loop's time; the read runs in a thread, later on a busy machine).
    monkeypatch.setattr(standings_feed, "arena_view", lambda arena_id: reads.append((arena_id, feed._last[arena_id])))
    loop = asyncio.get_running_loop()
    feed = StandingsFeed(loop)
    for arena_id in (1, 2):
        feed.subscribe(arena_id, Reader(loop))
    feed.refresh_soon(1)
    await until(lambda: len(reads) == 1)  # read once (after STANDINGS_DELAY), and done
    feed.refresh_soon(1)
    feed.refresh_soon(2)
    await until(lambda: len(reads) == 3)
    first, second = (at for arena_id, at in reads if arena_id == 1)
    assert second - first >= standings_feed.REFRESH_GAP - 0.01  # not STANDINGS_DELAY after the change
    [(_, other)] = [read for read in reads if read[0] == 2]
    assert other < second  # arena 2 had no read to wait for
    await feed.close()
