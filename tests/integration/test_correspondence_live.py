"""A correspondence game across two real processes on PostgreSQL + Redis, a day being three seconds: the
players' games lists and notifications at each step, then one process killed (kill -9) while the other
player's deadline runs, and the loss on time fired once by the survivor."""

from __future__ import annotations

import asyncio
import os
import time
import uuid

import pytest

from tests.livekit import Device, LiveServer, RoomSocket, postgres_database, server_env

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

DAY_SECONDS = 3.0


@pytest.fixture
def two(tmp_path):
    with postgres_database(os.environ["DATABASE_URL"]) as url:
        env = server_env(DATABASE_URL=url, REDIS_URL=os.environ["REDIS_URL"], CHANNEL_PREFIX=f"t{uuid.uuid4().hex[:8]}",
                         CORRESPONDENCE_DAY_SECONDS=str(DAY_SECONDS), DISCONNECT_GRACE_SECONDS="1",
                         PING_TIMEOUT_SECONDS="3")
        servers = [LiveServer(env, log_dir=tmp_path).start() for _ in range(2)]
        try:
            yield servers
        finally:
            for server in servers:
                server.stop()


def kinds(device: Device, base: str) -> list[str]:
    status, page = device.request("GET", "/api/notifications", base=base)
    assert status == 200
    return [n["kind"] for n in page["results"]]


def games(device: Device, base: str) -> dict:
    status, mine = device.request("GET", "/api/my/games", base=base)
    assert status == 200
    return mine


async def test_a_correspondence_game_over_days_on_two_processes_lost_on_time_once_after_a_kill(two):
    one, other = two
    ann, bob = Device(one.http), Device(other.http)
    ann.join("Ann")
    bob.join("Bob")
    room = ann.expect("POST", "/api/rooms", {"days_per_move": 1, "ranked": True})
    code = room["code"]
    a = await RoomSocket(one.ws, code, ann, one.http).connect(ping_every=1)
    b = await RoomSocket(other.ws, code, bob, other.http).connect(ping_every=1)
    await b.send(type="sit")
    await a.wait_room(lambda r: r["seats"][1]["player"] is not None)
    await a.send(type="start")
    started = await a.wait_room(lambda r: r["game"] is not None)
    game_id = started["game"]["id"]
    assert started["game"]["days_per_move"] == 1 and started["rules"]["days_per_move"] == 1
    assert [g["game"] for g in games(ann, one.http)["your_turn"]] == [game_id]
    assert [g["game"] for g in games(bob, other.http)["waiting"]] == [game_id]
    # Day one: Ann moves; Bob, on the other process, is told it is his turn and has it in his list.
    await a.drop("a1")
    await b.wait_room(lambda r: r["game"] is not None and r["game"]["ply"] == 1)
    assert kinds(bob, other.http) == ["your_turn"]
    mine = games(bob, other.http)["your_turn"]
    assert [(g["game"], g["last_move"], g["colour"]) for g in mine] == [(game_id, "a1", "yellow")]
    # Bob leaves on his turn and comes back (within his day: what he is away for, longer than the grace
    # period, is below, where a stand-in would show as a move of the CPU's before the deadline).
    await b.close()
    status, record = ann.request("GET", f"/api/games/{game_id}", base=one.http)
    assert status == 200 and [m["peg"] for m in record["moves"]] == ["a1"] and record["status"] == "playing"
    b = await RoomSocket(other.ws, code, bob, other.http).connect(ping_every=1)
    await b.drop("b1")
    await a.wait_room(lambda r: r["game"]["ply"] == 2)
    await a.drop("c1")
    await b.wait_room(lambda r: r["game"]["ply"] == 3)
    assert kinds(bob, other.http).count("your_turn") == 1  # the newer one replaced the unread one
    # Bob's move is due a day (3 s) after Ann's. Both pages close and Ann's process dies with its sockets;
    # the other process fires the deadline, once, and nobody stands in for Bob meanwhile, though he is
    # away for longer than the grace period (1 s): nobody does in a correspondence game.
    await b.close()
    await a.close()
    one.kill()
    give_up = time.monotonic() + 30
    while True:
        status, record = bob.request("GET", f"/api/games/{game_id}", base=other.http)
        assert status == 200
        if record["status"] != "playing":
            break
        assert time.monotonic() < give_up, "the deadline did not fire"
        await asyncio.sleep(0.3)
    assert (record["status"], record["reason"], record["winner"]) == ("won", "timeout", "red")
    assert [m["cpu"] for m in record["moves"]] == [False, False, False]  # no stand-in ever moved
    # The players are told once the game's post-game work (its rating) has committed, in the background.
    told_by = time.monotonic() + 30
    while "game_over" not in kinds(bob, other.http):
        assert time.monotonic() < told_by, "the players were not told the game was over"
        await asyncio.sleep(0.3)
    await asyncio.sleep(1)  # room for a second firing, if there were one
    status, again = bob.request("GET", f"/api/games/{game_id}", base=other.http)
    assert again["status"] == "won" and len(again["moves"]) == 3
    assert kinds(bob, other.http).count("game_over") == 1
    assert kinds(ann, other.http).count("game_over") == 1
    assert games(bob, other.http) == {"your_turn": [], "waiting": []}
    status, page = bob.request("GET", f"/api/players/{started['seats'][1]['player']['id']}", base=other.http)
    assert status == 200 and page["games"] == 1 and page["losses"] == 1  # rated once
