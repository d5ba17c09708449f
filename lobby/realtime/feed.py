"""The lobby's lists (open rooms, live games) kept fresh on every lobby socket, across processes.

One :class:`LobbyFeed` per event loop (one per server process in production), part of the loop's lobby
service (:class:`lobby.realtime.loop.LobbyLoop`). It has two jobs, both debounced, because a busy server
changes rooms many times a second:

- out: a room changed in this process (a committed ``ListsChanged`` signal reaches :meth:`LobbyFeed.changed`
  through the runtime and the lobby service) -> at most one ``lobby.changed`` message per ``NUDGE_DELAY``
  to the channel-layer group ``lobby``, which every lobby socket of every process belongs to;
- in: a lobby socket here received ``lobby.changed`` -> the lists are rebuilt once for the whole
  process (not once per socket) and handed to every subscribed socket, which sends what changed: the
  one debounced feed (:class:`live.debounce.DebouncedFeed`), its one key the group ``lobby``.

A rebuild reads the database after the message arrived, so it sees every change committed before it:
the last change reaches every socket within about ``NUDGE_DELAY`` and the feed's ``REFRESH_GAP`` plus a
query (under a second), and a socket is sent its lists at most about twice a second however busy the
server is.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from typing import Any, Protocol

from channels.layers import get_channel_layer
from django.utils import timezone

from live.debounce import DebouncedFeed
from lobby.events import LISTS_CHANGED_MESSAGE, LOBBY_GROUP
from lobby.rooms.listings import LobbyLists, lobby_lists

log = logging.getLogger(__name__)

NUDGE_DELAY = 0.25
LISTS_DELAY = 0.1


class ListsSubscriber(Protocol):
    async def lists_updated(self, lists: LobbyLists) -> None: ...


def _lists_now(group: str) -> LobbyLists:
    return lobby_lists(now=timezone.now())


async def _send_lists(subscriber: ListsSubscriber, lists: LobbyLists) -> None:
    await subscriber.lists_updated(lists)


class LobbyFeed(DebouncedFeed[str, LobbyLists, ListsSubscriber]):
    """This loop's sender of ``lobby.changed`` and builder of the lists for its lobby sockets (which
    subscribe to the key ``LOBBY_GROUP``)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(loop, read=_lists_now, send=_send_lists, what="the lobby's lists", delay=LISTS_DELAY)
        self._nudge: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    # --- out ---------------------------------------------------------------------------------------
    @property
    def nudging(self) -> bool:
        """Whether a nudge is due and not yet sent (safe to read from any thread: a change committed
        before this reads True is heard by the nudge, which reads nothing before it is sent)."""
        return self._nudge is not None

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
        await super().close()
