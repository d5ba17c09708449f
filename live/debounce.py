"""The one debounced feed: what many sockets of this event loop show, read once for all of them, at most
about twice a second however often it changes.

A socket subscribes to a key (the lobby's lists, one arena's standings) and, whenever it hears that what
its key shows changed (a channel-layer message every socket of the group hears), calls
:meth:`DebouncedFeed.refresh_soon`. The feed then reads the key once for the whole loop (not once per
socket) and hands the value to each of the key's subscribers. Reads of one key are at least ``gap``
apart, and a change that comes while one is under way is read once more after it: so the last change
always arrives, within about ``gap`` plus a read, and a socket is sent at most one value every ``gap``.
The lobby's lists (:class:`lobby.realtime.feed.LobbyFeed`) and the arenas' standings
(:class:`tournaments.realtime.feed.StandingsFeed`) are this feed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

from live.offload import offload

log = logging.getLogger(__name__)

# The default least time between two reads of one key (seconds): about two sends a second at most.
REFRESH_GAP = 0.5

K = TypeVar("K", bound=Hashable)  # what is read (a group of sockets shows one)
V = TypeVar("V")  # what the read gives
S = TypeVar("S")  # a subscriber (a socket)


class DebouncedFeed(Generic[K, V, S]):
    """One loop's debounced reads, one at a time per key, for every subscriber of that key.

    ``read`` runs in a database thread (:func:`live.offload.offload`) and returns None when there
    is nothing to show any more (the subscribers keep what they had); ``send`` hands a value to one
    subscriber. ``delay``: how long after the first change a read starts, so that the changes a burst
    makes are read once.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, *, read: Callable[[K], V | None],
                 send: Callable[[S, V], Awaitable[None]], what: str, delay: float, gap: float = REFRESH_GAP) -> None:
        self.loop = loop
        self.read, self.send, self.what, self.delay, self.gap = read, send, what, delay, gap
        self.subscribers: dict[K, set[S]] = {}
        self._refresh: dict[K, asyncio.Task[None]] = {}
        self._dirty: set[K] = set()
        self._last: dict[K, float] = {}  # when each key was last read for its subscribers (loop time)
        self.reads = 0  # reads so far (the benchmarks' and the tests' count)

    def subscribe(self, key: K, subscriber: S) -> None:
        self.subscribers.setdefault(key, set()).add(subscriber)

    def unsubscribe(self, key: K, subscriber: S) -> None:
        subscribers = self.subscribers.get(key)
        if subscribers is not None:
            subscribers.discard(subscriber)
            if not subscribers:
                del self.subscribers[key]

    def refresh_soon(self, key: K) -> None:
        """What ``key`` shows changed: read it once shortly, and again (``gap`` later) if it changes meanwhile."""
        task = self._refresh.get(key)
        if task is not None and not task.done():
            self._dirty.add(key)
            return
        self._refresh[key] = self.loop.create_task(self._rebuild(key))

    async def _rebuild(self, key: K) -> None:
        # Never sooner than ``gap`` after the last read: a socket gets at most one value every ``gap``.
        since = self.loop.time() - self._last.get(key, float("-inf"))
        await asyncio.sleep(max(self.delay, self.gap - since))
        while self.subscribers.get(key):
            self._last[key] = self.loop.time()
            self._dirty.discard(key)
            try:
                value = await offload(self.read)(key)
                self.reads += 1
            except Exception:
                log.exception("could not read %s %r", self.what, key)
                return
            if value is None:
                return
            for subscriber in list(self.subscribers.get(key, ())):
                try:
                    await self.send(subscriber, value)
                except Exception:  # one broken socket must not starve the others
                    log.exception("could not send %s %r to a socket", self.what, key)
            if key not in self._dirty:
                if not self.subscribers.get(key):
                    self._last.pop(key, None)
                return
            # Changes keep coming (a busy server): gather them, one read every ``gap``.
            await asyncio.sleep(self.gap)

    async def close(self) -> None:
        tasks = list(self._refresh.values())
        for task in tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.gather(*tasks, return_exceptions=True)
        self._refresh.clear()
