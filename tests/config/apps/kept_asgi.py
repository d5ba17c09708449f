"""A test application served by ``config.serve`` (daphne as deployed): its websockets are accepted and
held, and echo each frame; ``GET /kept`` answers what the process keeps for them (what :mod:`config.serve` cuts).

Run as ``python -m config.serve kept_asgi:application`` with this directory on ``PYTHONPATH``.
"""

from __future__ import annotations

import gc
import json
from typing import Any

from daphne.http_protocol import WebRequest

from config.serve import SendQueue, SlimWebSocketProtocol

Scope = dict[str, Any]


def kept() -> dict[str, Any]:
    gc.collect()
    protocols = [o for o in gc.get_objects() if issubclass(type(o), SlimWebSocketProtocol)]  # type(): no proxy asked
    listed = protocols[0].server.connections if protocols else {}  # daphne forgets those within a second
    # HTTP requests upgraded to a websocket (their transport went to it), alive though daphne forgot them
    upgraded = [o for o in gc.get_objects() if type(o) is WebRequest and o.transport is None and o not in listed]
    return {
        "sockets": len(protocols),
        "config_per_socket": sorted({a for p in protocols for a in p.CONFIG_ATTRS if a in vars(p)}),
        "handshake_bytes": sum(len(p.http_request_data) + len(p.http_response_data) for p in protocols),
        "handshake_headers": sum(len(p.http_headers) + len(p.request.headers) for p in protocols),
        "deque_send_queues": sum(1 for p in protocols if not isinstance(p.send_queue, SendQueue)),
        "producers": sum(1 for p in protocols if getattr(p.transport, "producer", None) is not None),
        "upgraded_requests": len(upgraded),
    }


async def application(scope: Scope, receive: Any, send: Any) -> None:
    if scope["type"] == "websocket":
        await receive()
        await send({"type": "websocket.accept"})
        while (message := await receive())["type"] != "websocket.disconnect":
            await send({"type": "websocket.send", "text": message.get("text")})  # an echo
    elif scope["type"] == "http":
        await receive()
        body = json.dumps(kept() if scope["path"] == "/kept" else {}).encode()
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": body})
