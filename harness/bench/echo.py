"""The baseline: pairs of sockets on the bare Channels echo (``scripts/echo_asgi.py``), timed as moves are.

That is the transport a move costs at the least: one frame in, one group send through the same channel
layer, one frame out to each member of the pair. Two reference lines show where that floor itself stands:
the same echo served by uvicorn, and a bare ``websockets`` echo without Django or a channel layer
(``scripts/echo_websockets.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random

import websockets
from websockets.asyncio.client import ClientConnection

from harness.bench.stats import Stats, paced
from harness.room import ws_base

ECHO_APP = "scripts.echo_asgi:application"
ECHO_HEALTH = "/"
# The reference lines beside the daphne echo: (label, runner, app) for harness.server.command.
REFERENCE_ECHOES = (("echo on uvicorn", "uvicorn", ECHO_APP),
                    ("bare websockets echo", "python", "scripts/echo_websockets.py"))


class EchoPair:
    """Two sockets of one echo pair (one on ``url``, one on ``other_url``); the mover alternates, as the
    seats of a game do."""

    def __init__(self, index: int, url: str, other_url: str, stats: Stats, timeout: float) -> None:
        self.index = index
        self.urls = (url, other_url)
        self.stats = stats
        self.timeout = timeout
        self.rng = random.Random(index)
        self.conns: list[ClientConnection] = []
        self.seen: list[asyncio.Queue[str]] = []
        self.readers: list[asyncio.Task[None]] = []
        self.count = 0

    async def set_up(self) -> None:
        """Open both sockets, each with a reader queueing the tags it sees."""
        for url in self.urls:
            conn = await websockets.connect(ws_base(url) + f"/ws/echo/{self.index}/", open_timeout=self.timeout,
                                            max_queue=None)
            queue: asyncio.Queue[str] = asyncio.Queue()
            self.conns.append(conn)
            self.seen.append(queue)
            self.readers.append(asyncio.get_running_loop().create_task(self._read(conn, queue)))

    @staticmethod
    async def _read(conn: ClientConnection, queue: asyncio.Queue[str]) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for raw in conn:
                queue.put_nowait(json.loads(raw)["n"])

    async def play(self, until: float, interval: float) -> None:
        """Echo every ``interval`` seconds until loop time ``until``; failures are counted."""
        await paced(self._echo, until, interval, self.rng)

    async def _echo(self) -> None:
        loop = asyncio.get_running_loop()
        mover = self.count % 2
        self.count += 1
        tag = f"{self.index}:{self.count}"
        sent = loop.time()
        try:
            await self.conns[mover].send(json.dumps({"type": "drop", "peg": "a1", "n": tag}))
            async with asyncio.timeout(self.timeout):
                while await self.seen[mover].get() != tag:
                    pass
            done = loop.time()
            self.stats.round_trips.append((done, done - sent))
        except Exception as exc:
            self.stats.error(f"echo {type(exc).__name__}")

    async def close(self) -> None:
        for conn in self.conns:
            with contextlib.suppress(Exception):
                await conn.close()
        for reader in self.readers:
            reader.cancel()
