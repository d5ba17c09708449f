"""The floor under the floor for ``scripts/bench_server.py``: a bare ``websockets`` echo, no Django, no
Channels, no channel layer.

Each websocket at ``/ws/echo/{pair}/`` joins its pair (two sockets, kept in this process's memory);
every frame it sends goes back to both members as it is. Run as ``python scripts/echo_websockets.py HOST
PORT``; ``GET /`` answers 200 for health checks. One process only: pairs cannot span processes.
"""

from __future__ import annotations

import asyncio
import sys
from collections import defaultdict
from http import HTTPStatus

from websockets.asyncio.server import ServerConnection, broadcast, serve
from websockets.http11 import Request, Response

PAIRS: defaultdict[str, set[ServerConnection]] = defaultdict(set)


def health(connection: ServerConnection, request: Request) -> Response | None:
    """Answer ``GET /`` (the harness's health check) without a websocket upgrade."""
    if request.path == "/":
        return connection.respond(HTTPStatus.OK, "ok\n")
    return None


async def echo(connection: ServerConnection) -> None:
    pair = connection.request.path if connection.request is not None else ""
    members = PAIRS[pair]
    members.add(connection)
    try:
        async for message in connection:
            broadcast(members, message)
    finally:
        members.discard(connection)
        if not members:
            PAIRS.pop(pair, None)


async def main(host: str, port: int) -> None:
    async with serve(echo, host, port, process_request=health, ping_interval=None, max_queue=None) as server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
