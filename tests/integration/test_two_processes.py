"""Two real daphne processes on PostgreSQL and Redis serve one room: a player on each plays a game."""

from __future__ import annotations

import pytest

from tests.livekit import Device, RoomSocket, postgres_redis_servers

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]


@pytest.fixture
def two_servers(tmp_path):
    with postgres_redis_servers(tmp_path) as servers:
        yield servers


def at_ply(n):
    return lambda r: r["game"] is not None and r["game"]["ply"] == n


async def test_a_player_on_each_process_plays_one_game(two_servers):
    one, two = two_servers
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
