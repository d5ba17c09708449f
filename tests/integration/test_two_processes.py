"""Two real daphne processes on PostgreSQL and Redis serve one room: a player on each plays a game."""

from __future__ import annotations

import asyncio

import pytest

from tests.livekit import Device, RoomSocket
from tests.pairkit import SHARED

# The shared pair of servers (tests/pairkit.py; each test has devices and a room of its own).
pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow, SHARED]


@pytest.fixture
def two_servers(shared_pair):
    return shared_pair.servers


def at_ply(n):
    return lambda r: r["game"] is not None and r["game"]["ply"] == n


async def seated_on_two_processes(one, two):  # type: ignore[no-untyped-def]
    """Ann (on process ``one``, the host in seat 1) and Bob (on ``two``, seat 2) in a casual room: the two
    devices, the room's code and their sockets."""
    ann, bob = Device(one.http), Device(two.http)
    ann.join("Ann")
    bob.join("Bob")
    status, room = ann.request("POST", "/api/rooms", {"ranked": False})
    assert status == 201
    code = room["code"]
    a = await RoomSocket(one.ws, code, ann, one.http).connect()
    b = await RoomSocket(two.ws, code, bob, two.http).connect()
    await b.send(type="sit")
    await a.wait_room(lambda r: r["seats"][1]["player"] is not None and r["seats"][1]["connected"])
    return ann, bob, code, a, b


async def test_a_player_on_each_process_plays_one_game(two_servers):
    one, two = two_servers
    ann, bob, code, a, b = await seated_on_two_processes(one, two)
    await a.send(type="start")
    record = "a1 b1 a2 b2 a3 b3 c1 b4"  # yellow completes row b at level 1
    for i, peg in enumerate(record.split()):
        who = a if i % 2 == 0 else b
        await who.wait_room(at_ply(i))
        await who.drop(peg)
    for client in (a, b):
        final = await client.wait_room(lambda r: r["game"] is not None and r["game"]["status"] == "won")
        assert final["game"]["winner_seat"] == 2
        assert final["game"]["moves"] == record.split()
    # Both processes read the same truth over REST too.
    game_id = final["game"]["id"]
    for device, server in ((ann, one), (bob, two)):
        status, body = device.request("GET", f"/api/games/{game_id}", base=server.http)
        assert status == 200 and [m["peg"] for m in body["moves"]] == record.split()
    await a.close()
    await b.close()


async def test_chat_crosses_processes(two_servers):
    """Messages sent on one process reach readers on the other; one player's rate spans both."""
    one, two = two_servers
    ann, bob, cy = Device(one.http), Device(two.http), Device(two.http)
    ann.join("Ann")
    bob.join("Bob")
    cy.join("Cy")
    status, room = ann.request("POST", "/api/rooms", {"ranked": False})
    assert status == 201
    code = room["code"]
    a = await RoomSocket(one.ws, code, ann, one.http).connect()
    b = await RoomSocket(two.ws, code, bob, two.http).connect()
    c = await RoomSocket(two.ws, code, cy, two.http).connect()
    await b.send(type="sit")
    await a.wait_room(lambda r: r["seats"][1]["player"] is not None and r["spectators"] == 1)

    def said(text):
        return lambda f: f.get("text") == text

    await b.send(type="say", chat="players", text="hi from two")
    heard = await a.wait("chat", said("hi from two"))
    assert heard["player"]["name"] == "Bob" and heard["chat"] == "players"
    await c.send(type="say", chat="spectators", text="watching on two")
    assert (await a.wait("chat", said("watching on two")))["chat"] == "spectators"

    # Ann's second tab is served by the other process: her rate counts both tabs.
    a2 = await RoomSocket(two.ws, code, ann, two.http).connect()
    for i in range(5):
        await (a if i < 3 else a2).send(type="say", chat="players", text=f"m{i}")
        await b.wait("chat", said(f"m{i}"))
    await a2.send(type="say", chat="players", text="m5")
    assert (await a2.wait("error"))["code"] == "rate_limited"

    # Cy comes back through process one: the history, once, with every message in order.
    await c.close()
    c = await RoomSocket(one.ws, code, cy, one.http).connect()
    history = await c.wait("chat_history")
    assert [m["text"] for m in history["messages"]] == ["hi from two", "watching on two", "m0", "m1", "m2", "m3",
                                                        "m4"]
    for client in (a, a2, b, c):
        await client.close()


async def test_a_takeback_and_a_move_racing_on_two_processes_exactly_one_wins(two_servers):
    """Ann asks to take a1 back; Bob accepts in his tab on one process while his tab on the other drops."""
    one, two = two_servers
    ann, bob, code, a, b_two = await seated_on_two_processes(one, two)
    b_one = await RoomSocket(one.ws, code, bob, one.http).connect()
    await a.send(type="start")
    await a.wait_room(at_ply(0))
    await a.drop("a1")
    await a.send(type="takeback", action="offer")
    for b in (a, b_one, b_two):  # Ann's too: the final wait below must not match her start snapshot (ply 0)
        await b.wait_room(lambda r: r["game"] is not None and r["game"]["offers"] == [{"kind": "takeback", "seat": 1}])
    await asyncio.gather(b_one.send(type="drop", peg="b1", ply=1), b_two.send(type="takeback", action="accept"))
    refused = []
    for b in (b_one, b_two):  # the loser hears an error; the winner's change reaches everyone
        try:
            error = await b.wait("error", timeout=3)
            refused.append(error["code"])
        except TimeoutError:
            pass
    assert len(refused) == 1 and refused[0] in {"stale", "no_offer"}, refused
    final = await a.wait_room(lambda r: r["game"]["ply"] in (0, 2) and not r["game"]["offers"])
    assert final["game"]["ply"] == (0 if refused == ["stale"] else 2)
    status, record = ann.request("GET", f"/api/games/{final['game']['id']}", base=one.http)
    assert status == 200 and len(record["moves"]) == final["game"]["ply"]
    for socket in (a, b_one, b_two):
        await socket.close()
