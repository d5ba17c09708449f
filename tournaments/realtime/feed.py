"""The standings kept fresh on every arena socket of this event loop, at most about twice a second.

An arena's change reaches the group of its sockets as ``tournament.changed`` (each process sends it at
most every ``tournaments.events.NUDGE_DELAY``); a socket that hears it calls :meth:`StandingsFeed.refresh_soon`,
and the arena is read once for the whole process (not once per socket) and handed to every socket on
its page, each of which adds its own row. While changes keep coming, reads are ``REFRESH_GAP`` apart, so
a socket gets at most about two frames a second however busy the arena is (as ``lobby.realtime.feed``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Protocol

from lobby.realtime.offload import offload
from tournaments.selectors import ArenaView, arena_view

log = logging.getLogger(__name__)

REFRESH_DELAY = 0.05
REFRESH_GAP = 0.5


class ArenaReader(Protocol):
    async def arena_updated(self, view: ArenaView) -> None: ...


class StandingsFeed:
    """This loop's reader of arenas for its arena sockets, one debounced refresh per arena."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.readers: dict[int, set[ArenaReader]] = {}
        self._refresh: dict[int, asyncio.Task[None]] = {}
        self._dirty: set[int] = set()
        self._last: dict[int, float] = {}  # when each arena was last read for its sockets (loop time)
        self.reads = 0  # arenas read so far (the benchmark's count)

    def subscribe(self, arena_id: int, reader: ArenaReader) -> None:
        self.readers.setdefault(arena_id, set()).add(reader)

    def unsubscribe(self, arena_id: int, reader: ArenaReader) -> None:
        readers = self.readers.get(arena_id)
        if readers is not None:
            readers.discard(reader)
            if not readers:
                del self.readers[arena_id]

    def refresh_soon(self, arena_id: int) -> None:
        """The arena changed: read it once shortly, and again (``REFRESH_GAP`` later) if it changes meanwhile."""
        task = self._refresh.get(arena_id)
        if task is not None and not task.done():
            self._dirty.add(arena_id)
            return
        self._refresh[arena_id] = self.loop.create_task(self._rebuild(arena_id))

    async def _rebuild(self, arena_id: int) -> None:
        # Never sooner than REFRESH_GAP after the last read: a socket gets at most about two frames a second.
        since = self.loop.time() - self._last.get(arena_id, float("-inf"))
        await asyncio.sleep(max(REFRESH_DELAY, REFRESH_GAP - since))
        while self.readers.get(arena_id):
            self._last[arena_id] = self.loop.time()
            self._dirty.discard(arena_id)
            try:
                view = await offload(arena_view)(arena_id)
                self.reads += 1
            except Exception:
                log.exception("could not read arena %s", arena_id)
                return
            if view is None:
                return
            for reader in list(self.readers.get(arena_id, ())):
                try:
                    await reader.arena_updated(view)
                except Exception:  # one broken socket must not starve the others
                    log.exception("could not send arena %s to a socket", arena_id)
            if arena_id not in self._dirty:
                if not self.readers.get(arena_id):
                    self._last.pop(arena_id, None)
                return
            await asyncio.sleep(REFRESH_GAP)

    async def close(self) -> None:
        tasks = list(self._refresh.values())
        for task in tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.gather(*tasks, return_exceptions=True)
        self._refresh.clear()
