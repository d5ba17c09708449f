"""The lobby's lists (open rooms, live games) kept fresh on every lobby socket, across processes.

One :class:`LobbyFeed` per event loop (one per server process in production), part of the loop's
runtime (:mod:`lobby.realtime.runtime`). It has two jobs, both debounced, because a busy server
changes rooms many times a second:

- out: a room changed in this process (a committed ``ListsChanged`` event reaches :meth:`LobbyFeed.changed`
  through the runtime) -> at most one ``lobby.changed`` message per ``NUDGE_DELAY`` to the channel-layer
  group ``lobby``, which every lobby socket of every process belongs to;
- in: a lobby socket here received ``lobby.changed`` -> the lists are rebuilt once for the whole
  process (not once per socket) and handed to every subscribed socket, which sends what changed.

A rebuild reads the database after the message arrived, so it sees every change committed before it:
the last change reaches every socket within about ``NUDGE_DELAY + REFRESH_GAP`` plus a query (under a
second), and a socket is sent its lists at most about twice a second however busy the server is.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from typing import Any, Protocol

from channels.layers import get_channel_layer
from django.utils import timezone

from lobby.events import LISTS_CHANGED_MESSAGE, LOBBY_GROUP
from lobby.realtime.offload import offload
from lobby.rooms.listings import LobbyLists, lobby_lists

log = logging.getLogger(__name__)

NUDGE_DELAY = 0.25
REFRESH_DELAY = 0.1
REFRESH_GAP = 0.5


class ListsSubscriber(Protocol):
    async def lists_updated(self, lists: LobbyLists) -> None: ...


class LobbyFeed:
    """This loop's sender of ``lobby.changed`` and builder of the lists for its lobby sockets."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.subscribers: set[ListsSubscriber] = set()
        self._nudge: asyncio.TimerHandle | None = None
        self._refresh: asyncio.Task[None] | None = None
        self._dirty = False
        self._tasks: set[asyncio.Task[None]] = set()

    # --- out ---------------------------------------------------------------------------------------
    def changed(self) -> None:
        """A room changed (call in the loop): the group hears of it within ``NUDGE_DELAY``, once."""
        if self._nudge is None:
            self._nudge = self.loop.call_later(NUDGE_DELAY, self._send_nudge)

    def _send_nudge(self) -> None:
        self._nudge = None
        self._spawn(self._group_send())

    async def _group_send(self) -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        try:
            await layer.group_send(LOBBY_GROUP, LISTS_CHANGED_MESSAGE)
        except Exception:  # the next change sends whole lists again
            log.exception("could not tell the lobby group that its lists changed")

    # --- in ----------------------------------------------------------------------------------------
    def subscribe(self, subscriber: ListsSubscriber) -> None:
        self.subscribers.add(subscriber)

    def unsubscribe(self, subscriber: ListsSubscriber) -> None:
        self.subscribers.discard(subscriber)

    def refresh_soon(self) -> None:
        """The lists changed somewhere: rebuild them once shortly, and again if they change meanwhile."""
        if self._refresh is not None and not self._refresh.done():
            self._dirty = True
            return
        self._refresh = self._spawn(self._rebuild())

    async def _rebuild(self) -> None:
        await asyncio.sleep(REFRESH_DELAY)
        while True:
            if not self.subscribers:
                return
            self._dirty = False
            try:
                lists = await offload(lobby_lists)(now=timezone.now())
            except Exception:
                log.exception("could not build the lobby's lists")
                return
            for subscriber in list(self.subscribers):
                try:
                    await subscriber.lists_updated(lists)
                except Exception:  # one broken socket must not starve the others
                    log.exception("could not send the lobby's lists to a socket")
            if not self._dirty:
                return
            # Changes keep coming (a busy server): gather them, so every socket gets at most about two
            # sends a second however many rooms change.
            await asyncio.sleep(REFRESH_GAP)

    # --- life --------------------------------------------------------------------------------------
    def _spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = self.loop.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def close(self) -> None:
        if self._nudge is not None:
            self._nudge.cancel()
            self._nudge = None
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.gather(*tasks, return_exceptions=True)
