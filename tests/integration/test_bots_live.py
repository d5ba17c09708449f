"""The bot API end to end over real HTTP streams on two daphne processes (PostgreSQL + Redis): a bot made
from scratch accepts a person's challenge and both play to the end, each seeing every move once and in
order; streams survive a reconnect; two bots play each other through ``python -m botclient`` with the
built-in CPU adapter; and the refusals."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

import pytest

from harness.stream import NdjsonStream, StreamRefused
from tests.livekit import ROOT, Device, RoomSocket
from tests.pairkit import SHARED

# The shared pair of servers (tests/pairkit.py; each test has accounts of its own).
pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow, SHARED]

PASSWORD = "four-in-a-row-3d!"


@pytest.fixture
def two_servers(shared_pair):
    return shared_pair.servers


def account(server, username: str) -> Device:
    device = Device(server.http)
    device.request("GET", "/api/session")
    device.expect("POST", "/api/accounts/register", {"username": username, "password": PASSWORD}, ok=(201,))
    return device


def token_of(device: Device) -> tuple[int, str]:
    made = device.expect("POST", "/api/accounts/tokens", {"description": "bot"}, ok=(201,))
    return made["id"], made["token"]


def bot_call(server, token: str, method: str, path: str, body=None) -> tuple[int, dict]:
    device = Device(server.http)
    device.opener.addheaders = [("Authorization", f"Bearer {token}")]
    return device.request(method, path, body)


def new_bot(server, username: str) -> str:
    """A bot made from scratch: an account, a token, the upgrade."""
    _, token = token_of(account(server, username))
    assert bot_call(server, token, "POST", "/api/bot/account/upgrade")[0] == 200
    return token


def kind(name):
    return lambda line: line["type"] == name


async def test_a_bot_accepts_a_persons_challenge_and_both_play_to_the_end(two_servers):
    one, two = two_servers
    ann = account(one, "anna")
    token = new_bot(two, "robo")
    events = await asyncio.to_thread(NdjsonStream, two.http, "/api/stream/event", token)
    challenge = ann.expect("POST", "/api/challenge/robo", {"turn_seconds": 60, "ranked": False, "colour": "red"},
                           ok=(201,))
    heard = await asyncio.to_thread(events.wait, kind("challenge"))
    assert heard["challenge"]["id"] == challenge["id"] and heard["challenge"]["challenger"]["username"] == "anna"
    # Accepted through the other process: the event stream (process two) hears gameStart through Redis.
    status, accepted = bot_call(one, token, "POST", f"/api/challenge/{challenge['id']}/accept")
    assert status == 200
    start = await asyncio.to_thread(events.wait, kind("gameStart"))
    game_id, code = start["game"]["id"], start["game"]["room"]
    assert (start["game"]["colour"], code) == ("yellow", accepted["room"])

    person = await RoomSocket(one.ws, code, ann, one.http).connect()
    stream = await asyncio.to_thread(NdjsonStream, two.http, f"/api/bot/game/stream/{game_id}", token)
    full = (await asyncio.to_thread(stream.next))[1]
    assert full["type"] == "gameFull" and full["state"]["moves"] == "" and full["state"]["status"] == "playing"
    assert (full["red"]["username"], full["yellow"]["title"], full["rules"]) == (
        "anna", "BOT", {"turn_seconds": 60, "days_per_move": None, "ranked": False})
    # The room shows the bot connected (its stream) and marked BOT.
    room = await person.wait_room(lambda r: r["seats"][1]["connected"])
    assert room["seats"][1]["player"]["title"] == "BOT"

    record = ["a1", "b1", "a2", "b2", "a3", "b3", "c1", "b4"]  # yellow completes row b at level 1
    for ply, peg in enumerate(record):
        if ply % 2 == 0:
            await person.wait_room(lambda r, n=ply: r["game"]["ply"] == n)
            await person.drop(peg)
        else:
            await asyncio.to_thread(stream.wait, lambda line, n=ply: line.get("ply") == n)
            via = one if ply % 4 == 1 else two  # moves through both processes
            assert bot_call(via, token, "POST", f"/api/bot/game/{game_id}/move/{peg}")[0] == 200
    await asyncio.to_thread(stream.ended.wait, 20)
    states = [line for line in stream.lines if line["type"] == "gameState"]
    assert [s["moves"] for s in states] == [" ".join(record[: n + 1]) for n in range(len(record))]
    assert (states[-1]["status"], states[-1]["winner"]) == ("won", "yellow")
    final = await person.wait_room(lambda r: r["game"]["status"] == "won")
    moves_seen = [frame["peg"] for frame in person.log if frame["type"] == "move"]
    assert moves_seen == record and final["game"]["moves"] == record
    finish = await asyncio.to_thread(events.wait, kind("gameFinish"))
    assert finish["game"] == {"id": game_id, "room": code, "colour": "yellow", "status": "won", "winner": "yellow",
                              "reason": "line"}
    events.close()
    await person.close()
    assert not one.log_errors() and not two.log_errors()


async def test_a_game_stream_survives_a_reconnect_and_refusals_hold_across_processes(two_servers):
    one, two = two_servers
    robo = new_bot(one, "robo2")
    bobo_device = account(two, "bobo2")
    bobo_token_id, bobo = token_of(bobo_device)
    assert bot_call(two, bobo, "POST", "/api/bot/account/upgrade")[0] == 200
    eve = new_bot(two, "evebot")
    made = bot_call(one, robo, "POST", "/api/challenge/bobo2", {"turn_seconds": 30, "colour": "red"})[1]
    game_id = bot_call(two, bobo, "POST", f"/api/challenge/{made['id']}/accept")[1]["game"]

    first = await asyncio.to_thread(NdjsonStream, one.http, f"/api/bot/game/stream/{game_id}", bobo)
    assert (await asyncio.to_thread(first.next))[1]["type"] == "gameFull"
    assert bot_call(two, robo, "POST", f"/api/bot/game/{game_id}/move/a1")[0] == 200
    await asyncio.to_thread(first.wait, lambda line: line.get("moves") == "a1")
    first.close()
    # Out of turn, and a second move on the same ply: the room socket's codes.
    assert bot_call(one, robo, "POST", f"/api/bot/game/{game_id}/move/b1")[1]["code"] == "not_your_turn"
    assert bot_call(two, bobo, "POST", f"/api/bot/game/{game_id}/move/b1")[0] == 200
    assert bot_call(one, bobo, "POST", f"/api/bot/game/{game_id}/move/c1")[1]["code"] == "not_your_turn"
    assert bot_call(one, robo, "POST", f"/api/bot/game/{game_id}/move/c1?ply=1")[1]["code"] == "stale"
    # A new stream, on the other process, starts with the whole game.
    again = await asyncio.to_thread(NdjsonStream, two.http, f"/api/bot/game/stream/{game_id}", bobo)
    full = (await asyncio.to_thread(again.next))[1]
    assert full["type"] == "gameFull" and full["state"]["moves"] == "a1 b1"
    # Another bot's game, a bad token, a revoked token.
    with pytest.raises(StreamRefused) as other:
        NdjsonStream(one.http, f"/api/bot/game/stream/{game_id}", eve)
    assert (other.value.status, other.value.body["code"]) == (403, "not_your_game")
    assert bot_call(one, eve, "POST", f"/api/bot/game/{game_id}/move/c1")[1]["code"] == "not_your_game"
    with pytest.raises(StreamRefused) as bad:
        NdjsonStream(two.http, "/api/stream/event", "f4r_not-a-token")
    assert (bad.value.status, bad.value.body["code"]) == (401, "bad_token")
    bobo_device.expect("DELETE", f"/api/accounts/tokens/{bobo_token_id}", ok=(204,))
    status, refused = bot_call(one, bobo, "POST", f"/api/bot/game/{game_id}/move/c1")
    assert (status, refused["code"]) == (401, "bad_token")
    with pytest.raises(StreamRefused) as revoked:
        NdjsonStream(one.http, f"/api/bot/game/stream/{game_id}", bobo)
    assert revoked.value.status == 401
    again.close()
    assert not one.log_errors() and not two.log_errors()


def test_two_bots_play_each_other_through_the_client_with_the_built_in_cpu(two_servers):
    one, two = two_servers
    robo, bobo = new_bot(one, "robo3"), new_bot(two, "bobo3")
    client = [sys.executable, "-m", "botclient", "--cpu", "1", "--games", "1", "--max-ms", "200"]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    accepting = subprocess.Popen([*client, "--server", one.http, "--token", robo], cwd=ROOT, env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    challenging = subprocess.Popen([*client, "--server", two.http, "--token", bobo, "--challenge", "robo3"], cwd=ROOT,
                                   env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        outputs = [proc.communicate(timeout=180)[0] for proc in (accepting, challenging)]
    finally:
        for proc in (accepting, challenging):
            proc.kill()
    assert [accepting.returncode, challenging.returncode] == [0, 0], outputs
    robo_page = Device(one.http)
    profile = robo_page.expect("GET", f"/api/players/{bot_call(one, robo, 'GET', '/api/bot/account')[1]['id']}")
    game = profile["recent_games"][0]
    assert game["status"] in ("won", "drawn") and game["opponent"]["title"] == "BOT"
    record = robo_page.expect("GET", f"/api/games/{game['id']}")
    # Every move was the bots' own (no CPU stand-in, no timeout move).
    assert record["moves"] and not any(move["cpu"] for move in record["moves"]), record["moves"]
    assert not one.log_errors() and not two.log_errors()
