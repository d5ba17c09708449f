"""Online presence, this loop's part: the players it holds a page socket of, published in the shared cache
(:mod:`lobby.rooms.people` reads it for the friends list). The second of two presences (docs/architecture.md,
"Two presences"): any page of a player, as cache keys that lapse, never a database row and never a seat's
state; which sockets are in a room is room presence (``lobby.rooms.connections``, ``lobby.realtime.presence``).

Every page socket (room, lobby, arena, player) joins its player's group as it opens and leaves it as it
closes (``lobby.realtime.socket.Consumer``); those two calls :meth:`Online.hold` and :meth:`Online.release`
here. A player's first socket on this loop sets their key at once (the changes of one loop iteration go
out together, in a thread: the cache may be Redis), their last one deletes it, and every
``ONLINE_RENEW_SECONDS`` the keys of everyone held are renewed in one ``set_many``. So an idle socket
costs nothing; a process that dies leaves keys that lapse within ``ONLINE_LAPSE_SECONDS``. A player with
pages on two processes who closes the last one on one of them shows offline until the other renews.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter

from lobby.rooms.people import ONLINE_RENEW_SECONDS, online_publish

log = logging.getLogger(__name__)


class Online:
    """This loop's online presence: the players it holds a page socket of (see the module docstring; which
    sockets are in a room is :class:`lobby.realtime.presence.Presence`)."""

    def __init__(self) -> None:
        self.held: Counter[str] = Counter()
        self.changed: set[str] = set()  # first socket opened or last one closed, not yet published
        self.publishing: asyncio.Task[None] | None = None
        self.task: asyncio.Task[None] | None = None

    def hold(self, player_id: object) -> None:
        key = str(player_id)
        self.held[key] += 1
        if self.held[key] == 1:
            self._changed(key)

    def release(self, player_id: object) -> None:
        key = str(player_id)
        if self.held[key] > 1:
            self.held[key] -= 1
            return
        self.held.pop(key, None)
        self._changed(key)

    def _changed(self, key: str) -> None:
        self.changed.add(key)
        if self.publishing is None or self.publishing.done():
            self.publishing = asyncio.get_running_loop().create_task(self._publish())

    async def _publish(self) -> None:
        await asyncio.sleep(0)  # every change of this loop iteration in one publication
        while self.changed:
            changed, self.changed = self.changed, set()
            here = [key for key in changed if key in self.held]
            gone = [key for key in changed if key not in self.held]
            try:
                await asyncio.to_thread(online_publish, here=here, gone=gone)
            except Exception:
                log.exception("could not publish who is online")

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(ONLINE_RENEW_SECONDS)
            if not self.held:
                continue
            try:
                await asyncio.to_thread(online_publish, here=list(self.held), gone=())
            except Exception:
                log.exception("could not renew who is online")

    def start(self) -> None:
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._renew(), name="online-renew")

    async def settle(self) -> None:
        """Wait until every change is published (tests)."""
        if self.publishing is not None:
            await self.publishing

    async def stop(self) -> None:
        for task in (self.task, self.publishing):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        self.task = self.publishing = None
