"""A websocket's inboxes: an unbounded queue for one receiver, a quarter of an ``asyncio.Queue``'s memory.

Every open socket holds two queues for as long as it is open: daphne's (the frames from the browser,
read by the consumer's ``receive``) and the channel layer's (the messages of its channel and groups).
An ``asyncio.Queue`` is about 3 KiB empty (three deques and an event, each with a block of its own);
idle sockets are mostly empty queues. An :class:`Inbox` is a list and the one receiver's future: a
socket's frames are read one at a time by one task, by Channels' consumer loop, and that is all it
allows (a second receiver waiting at the same time is a programming error, raised at once).

It has the two methods daphne and channels-redis use: ``put_nowait`` and ``get``.
"""

from __future__ import annotations

import asyncio
from typing import Generic, TypeVar

T = TypeVar("T")


class Inbox(Generic[T]):
    """Items in the order put, for one receiver at a time."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: list[T] = []
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: T) -> None:
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def get(self) -> T:
        """The oldest item, waiting for one if there is none. Cancelled while waiting, it takes nothing.

        Raises:
            RuntimeError: another receiver is waiting on this inbox already.
        """
        while not self._items:
            if self._waiter is not None and not self._waiter.done():
                raise RuntimeError("an inbox has one receiver at a time, and one is waiting already")
            waiter = self._waiter = asyncio.get_running_loop().create_future()
            try:
                await waiter
            finally:
                if self._waiter is waiter:
                    self._waiter = None
        return self._items.pop(0)
