"""Follow, online and playing across two real server processes on PostgreSQL + Redis: Ann follows Bob on one
process; Bob's pages open, play and close on the other; Ann's friends list follows, and Bob is told."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import pytest

from tests.livekit import Device, LobbySocket, RoomSocket
from tests.pairkit import SHARED

# The shared pair of servers (tests/pairkit.py).
pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow, SHARED]

PASSWORD = "four-in-a-row-3d!"


def account(server_http: str, name: str) -> tuple[Device, str]:
    device = Device(server_http)
    device.join(name.title())
    device.expect("POST", "/api/accounts/register", {"username": name, "password": PASSWORD}, ok=(201,))
    return device, str(device.expect("GET", "/api/session")["player"]["id"])


async def friend_becomes(device: Device, wanted: Callable[[dict[str, Any]], bool], *,
                         within: float = 1.5) -> dict[str, Any]:
    """Ann's one friend as ``GET /api/my/following`` shows them, once ``wanted`` holds (within ``within`` s)."""
    end = time.monotonic() + within
    while True:
        [friend] = await asyncio.to_thread(device.expect, "GET", "/api/my/following")
        if wanted(friend) or time.monotonic() > end:
            assert wanted(friend), friend
            return dict(friend)
        await asyncio.sleep(0.05)


async def test_a_friend_on_another_process_shows_online_playing_and_gone(shared_pair):
    one, two = shared_pair.servers
    ann, _ = await asyncio.to_thread(account, one.http, "ann")
    bob, bob_id = await asyncio.to_thread(account, two.http, "bob")
    await asyncio.to_thread(ann.expect, "POST", f"/api/players/{bob_id}/follow")
    friend = await friend_becomes(ann, lambda f: True)
    assert (friend["player"]["id"], friend["online"], friend["playing"]) == (bob_id, False, None)
    [told] = (await asyncio.to_thread(bob.expect, "GET", "/api/notifications"))["results"]
    assert told["kind"] == "followed" and told["text"] == "Ann follows you."

    # Bob opens the home page on the other process: online within a second and a half.
    home = await LobbySocket(two.ws, bob, two.http).connect()
    await friend_becomes(ann, lambda f: f["online"])

    # Bob plays Cy there: Ann's list says where to watch.
    cy = Device(two.http)
    await asyncio.to_thread(cy.join, "Cy")
    code = await asyncio.to_thread(bob.create_room, {"ranked": False})
    at_bob = await RoomSocket(two.ws, code, bob, two.http).connect()
    at_cy = await RoomSocket(two.ws, code, cy, two.http).connect()
    await at_cy.send(type="sit")
    await at_bob.wait_room(lambda r: r["seats"][1]["player"] is not None)
    await at_bob.send(type="start")
    room = await at_bob.wait_room(lambda r: r["game"] is not None and r["game"]["status"] == "playing")
    playing = await friend_becomes(ann, lambda f: f["playing"] is not None)
    assert playing["playing"] == {"room": code, "game": room["game"]["id"]} and playing["online"]

    # Every page of Bob's closed: offline (the game goes on without him).
    for socket in (home, at_bob):
        await socket.close()
    await friend_becomes(ann, lambda f: not f["online"])
    await at_cy.close()
