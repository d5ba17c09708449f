"""Websocket paths without a route are refused like an unknown room (4404), never with an exception."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application

# The application starts this loop's game scheduler on every connection, and the scheduler reads the database.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("scheduler_cleanup")]


@pytest.mark.parametrize(
    "path", ["/ws/rooms/ABCDEF", "/ws/", "/ws/nope", "/ws/rooms/ABCDEF/more/", "/ws/rooms//", "/"]
)
async def test_a_websocket_path_without_a_route_closes_with_4404(path):
    comm = WebsocketCommunicator(application, path, headers=[(b"origin", b"http://localhost")])
    connected, _ = await comm.connect(timeout=5)
    assert connected
    assert await comm.receive_output(timeout=5) == {"type": "websocket.close", "code": 4404}
    await comm.disconnect()


async def test_a_foreign_origin_is_still_refused_first_on_an_unknown_path():
    comm = WebsocketCommunicator(application, "/ws/nope", headers=[(b"origin", b"http://evil.example")])
    connected, _ = await comm.connect(timeout=5)
    assert not connected
