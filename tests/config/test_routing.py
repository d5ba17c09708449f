"""Websocket paths without a route are refused like an unknown room (4404), never with an exception."""

from __future__ import annotations

import logging

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application

# The application starts this loop's ticker on every connection, and the ticker reads the database.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("runtime_cleanup")]


@pytest.mark.parametrize(
    "path", ["/ws/rooms/ABCDEF", "/ws/", "/ws/nope", "/ws/rooms/ABCDEF/more/", "/ws/rooms//", "/"]
)
async def test_a_websocket_path_without_a_route_closes_with_4404(path):
    comm = WebsocketCommunicator(application, path, headers=[(b"origin", b"http://localhost")])
    connected, _ = await comm.connect(timeout=5)
    assert connected
    assert await comm.receive_output(timeout=5) == {"type": "websocket.close", "code": 4404}
    await comm.disconnect()


@pytest.mark.parametrize("path", [
    "/ws/rooms/ABC%00/",  # a NUL
    "/ws/rooms/" + "A" * 30 + "/",
    "/ws/rooms/" + "A" * 100 + "/",  # longer than a channel-layer group name may be
    "/ws/rooms/%3Csvg%20onload%3Dalert%281%29/",
    "/ws/rooms/%3Csvg%20onload%3Dalert%281%29",
    "/ws/rooms/AB.CD-/",
])
async def test_a_malformed_room_code_closes_with_4404_not_4503(path, caplog):
    """A bad link must not make the page retry for ever: 4503 is only for the server's own trouble."""
    comm = WebsocketCommunicator(application, path, headers=[(b"origin", b"http://localhost")])
    connected, _ = await comm.connect(timeout=5)
    assert connected
    assert await comm.receive_output(timeout=5) == {"type": "websocket.close", "code": 4404}
    await comm.disconnect()
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


async def test_a_foreign_origin_is_still_refused_first_on_an_unknown_path():
    comm = WebsocketCommunicator(application, "/ws/nope", headers=[(b"origin", b"http://evil.example")])
    connected, _ = await comm.connect(timeout=5)
    assert not connected
