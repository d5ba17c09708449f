"""The room websocket end to end: every client frame, every error code, whole games."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application
from lobby.realtime.loop import lobby_loop
from tests.records import DRAWN_RECORD
from tests.roomkit import Client, at_ply, make_player_async, make_room_async, seated_pair

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("runtime_cleanup")]


async def play(a, b, record, *, first=None):
    """Play ``record`` move by move; ``first`` is the client playing Red (``a`` by default)."""
    red = first or a
    yellow = b if red is a else a
    for i, peg in enumerate(record.split()):
        who = red if i % 2 == 0 else yellow
        await who.wait_room(at_ply(i))
        await who.drop(peg)


async def test_unknown_room_closes_with_4404():
    comm = WebsocketCommunicator(application, "/ws/rooms/NOPE22/", headers=[(b"origin", b"http://localhost")])
    connected, _ = await comm.connect()
    assert connected
    closed = await comm.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4404}


async def test_a_room_code_in_lower_case_still_joins():
    ann, key = await make_player_async("Ann")
    code = await make_room_async(ann)
    a = await Client(code.lower(), key).connect()
    assert a.room["code"] == code
    await a.close()


async def test_foreign_origin_is_refused():
    ann, key = await make_player_async()
    code = await make_room_async(ann)
    headers = [(b"origin", b"http://evil.example"), (b"cookie", f"sessionid={key}".encode())]
    comm = WebsocketCommunicator(application, f"/ws/rooms/{code}/", headers=headers)
    connected, _ = await comm.connect()
    assert not connected


async def test_snapshot_on_connect_describes_the_room_and_you():
    ann, key = await make_player_async("Ann")
    code = await make_room_async(ann, turn_seconds=30, cpu_level=4)
    a = await Client(code, key).connect()
    room = a.room
    assert room["type"] == "room" and room["code"] == code and room["host"] == str(ann.id)
    assert room["rules"] == {"turn_seconds": 30, "days_per_move": None,
                             "alternate_first": True, "ranked": True, "cpu_level": 4,
                             "spectator_chat": True, "open": False}
    assert room["seats"][0]["player"] == {"id": str(ann.id), "name": "Ann"}
    assert room["seats"][0]["connected"] is True
    assert room["seats"][1]["player"] is None and room["seats"][1]["cpu"] is False
    assert room["game"] is None and room["spectators"] == 0
    assert room["you"] == {"player": str(ann.id), "seat": 1}
    await a.close()


async def test_ping_pong_and_spectator_without_player():
    ann, key = await make_player_async()
    code = await make_room_async(ann)
    a = await Client(code, key).connect()
    anon = await Client(code, None).connect()
    assert anon.room["you"] == {"player": None, "seat": None}
    await a.wait_room(lambda r: r["spectators"] == 1)
    await anon.send(type="ping")
    assert (await anon.wait("pong")) == {"type": "pong"}
    await anon.send(type="sit")
    assert (await anon.error())["code"] == "no_player"
    await anon.close()
    await a.wait_room(lambda r: r["spectators"] == 0)
    await a.close()


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("not json", "bad_frame"),
        ("[1, 2]", "bad_frame"),
        ('{"no": "type"}', "bad_frame"),
        ('{"type": "fly"}', "bad_frame"),
        ('{"type": "drop", "ply": 0}', "bad_frame"),
        ('{"type": "drop", "peg": "a1", "ply": "0"}', "bad_frame"),
        ('{"type": "drop", "peg": "a1", "ply": true}', "bad_frame"),
        ('{"type": "drop", "peg": 7, "ply": 0}', "bad_frame"),
        ('{"type": "rules", "colour": "blue"}', "bad_frame"),
        ('{"type": "rules"}', "bad_frame"),
        ('{"type": "drop", "peg": "' + "a" * 5000 + '", "ply": 0}', "too_large"),
    ],
)
async def test_bad_frames_get_an_error_and_change_nothing(raw, code):
    ann, key = await make_player_async()
    room_code = await make_room_async(ann)
    a = await Client(room_code, key).connect()
    before = a.room["version"]
    await a.send_raw(raw)
    error = await a.error()
    assert error["code"] == code and error["message"]
    await a.send(type="ping")
    await a.wait("pong")
    assert a.room["version"] == before
    await a.close()


async def test_binary_frame_is_refused():
    ann, key = await make_player_async()
    a = await Client(await make_room_async(ann), key).connect()
    await a.comm.send_to(bytes_data=b"\x00\x01")
    assert (await a.error())["code"] == "bad_frame"
    await a.close()


async def test_flooding_is_rate_limited_but_the_connection_survives():
    ann, key = await make_player_async()
    a = await Client(await make_room_async(ann), key).connect()
    for _ in range(80):
        await a.send(type="ping")
    codes = []
    for _ in range(80):
        frame = await a.next_frame()
        codes.append(frame.get("code") if frame["type"] == "error" else frame["type"])
    assert "rate_limited" in codes and "pong" in codes
    await asyncio.sleep(0.2)
    await a.send(type="ping")
    await a.wait("pong")
    await a.close()


async def test_sit_stand_and_their_errors():
    code, a, b = await seated_pair()
    ann_seat, bob_seat = a.room["you"]["seat"], b.room["you"]["seat"]
    assert (ann_seat, bob_seat) == (1, 2)
    _carl, carl_key = await make_player_async("Carl")
    c = await Client(code, carl_key).connect()
    await c.send(type="sit")
    assert (await c.error())["code"] == "seat_taken"
    await c.send(type="stand")
    assert (await c.error())["code"] == "no_seat"
    await b.send(type="stand")
    await b.wait_room(lambda r: r["you"]["seat"] is None and r["seats"][1]["player"] is None)
    await c.send(type="sit")
    await c.wait_room(lambda r: r["you"]["seat"] == 2)
    await a.send(type="start")
    await c.wait_room(lambda r: r["game"] is not None)
    await c.send(type="stand")
    assert (await c.error())["code"] == "game_not_over"
    for client in (a, b, c):
        await client.close()


async def test_rules_by_the_host_between_games_only():
    _code, a, b = await seated_pair()
    await b.send(type="rules", turn_seconds=60)
    assert (await b.error())["code"] == "not_host"
    await a.send(type="rules", turn_seconds=45)
    assert (await a.error())["code"] == "bad_rules"
    await a.send(type="rules", turn_seconds=60, alternate_first=False, ranked=False, cpu_level=5,
                 spectator_chat=False)
    room = await b.wait_room(lambda r: r["rules"]["turn_seconds"] == 60)
    assert room["rules"] == {"turn_seconds": 60, "days_per_move": None,
                             "alternate_first": False, "ranked": False, "cpu_level": 5,
                             "spectator_chat": False, "open": False}
    await a.send(type="start")
    room = await a.wait_room(lambda r: r["game"] is not None)
    assert room["game"]["deadline"] is not None
    await a.send(type="rules", turn_seconds=None)
    assert (await a.error())["code"] == "game_not_over"
    await a.close()
    await b.close()


async def test_start_only_by_the_host_and_not_twice():
    _code, a, b = await seated_pair()
    await b.send(type="start")
    assert (await b.error())["code"] == "not_host"
    await a.send(type="start")
    room = await b.wait_room(lambda r: r["game"] is not None)
    assert room["game"]["red_seat"] == 1 and room["game"]["to_move_seat"] == 1 and room["game"]["ply"] == 0
    assert room["seats"][1]["cpu"] is False
    await a.send(type="start")
    assert (await a.error())["code"] == "game_not_over"
    await a.close()
    await b.close()


async def test_drop_errors():
    _code, a, b = await seated_pair()
    await a.send(type="drop", peg="a1", ply=0)
    assert (await a.error())["code"] == "no_game"
    await a.send(type="start")
    await a.wait_room(at_ply(0))
    await b.send(type="drop", peg="a1", ply=0)
    assert (await b.error())["code"] == "not_your_turn"
    await a.send(type="drop", peg="x9", ply=0)
    error = await a.error()
    assert error == {"type": "error", "code": "bad_peg", "message": '"x9" is not a peg.'}
    await play(a, b, "b3 b3 b3 b3")
    await a.wait_room(at_ply(4))
    await a.send(type="drop", peg="b3", ply=4)
    assert (await a.error()) == {
        "type": "error", "code": "peg_full", "message": "Peg b3 is full: it already holds 4 beads."
    }
    await a.send(type="drop", peg="a1", ply=3)
    assert (await a.error())["code"] == "stale"
    assert a.room["game"]["ply"] == 4 and a.room["game"]["to_move_seat"] == 1
    await a.close()
    await b.close()


async def test_two_players_play_to_a_win_and_a_spectator_sees_every_move():
    code, a, b = await seated_pair()
    spectator = await Client(code, None).connect()
    await a.send(type="start")
    await play(a, b, "a1 b1 a1 b1 a1 b1 a1")
    for client in (a, b, spectator):
        final = await client.wait_room(lambda r: r["game"] is not None and r["game"]["status"] == "won")
        assert final["game"]["winner_seat"] == 1 and final["game"]["to_move_seat"] is None
        assert final["game"]["reason"] == "line"
        assert final["game"]["line"] == [{"peg": "a1", "level": n} for n in (1, 2, 3, 4)]
    seen = [r["game"]["ply"] for r in spectator.rooms if r["game"] is not None]
    assert sorted(set(seen)) == list(range(8))
    # Every move came as a small move frame, the end too (it shows the ratings the game was played for);
    # once the game is rated (the post-game work, after commit), the whole room with the new ratings.
    assert [f["ply"] for f in spectator.log if f["type"] == "move"] == list(range(1, 8))
    rated = await spectator.wait_room(lambda r: r["seats"][0]["rating"]["rating"] != 1500.0)
    assert rated["game"]["ply"] == 7 and spectator.log[-1]["type"] == "room"
    await a.send(type="drop", peg="c1", ply=7)
    assert (await a.error())["code"] == "game_over"
    for client in (a, b, spectator):
        await client.close()


async def test_a_full_board_is_a_draw():
    _code, a, b = await seated_pair()
    await a.send(type="start")
    await play(a, b, DRAWN_RECORD)
    final = await b.wait_room(lambda r: r["game"] is not None and r["game"]["status"] == "drawn")
    assert final["game"]["ply"] == 64 and final["game"]["winner_seat"] is None
    assert final["game"]["reason"] == "full_board"
    await a.close()
    await b.close()


async def test_resign_and_again_alternate_the_first_move():
    _code, a, b = await seated_pair()
    await a.send(type="again")
    assert (await a.error())["code"] == "no_game"
    await a.send(type="start")
    await a.wait_room(at_ply(0))
    await b.send(type="again")
    assert (await b.error())["code"] == "game_not_over"
    await b.send(type="resign")
    over = await a.wait_room(lambda r: r["game"]["status"] == "resigned")
    assert over["game"]["winner_seat"] == 1 and over["game"]["reason"] == "resignation"
    await b.send(type="resign")
    assert (await b.error())["code"] == "game_over"
    await a.send(type="again")
    waiting = await b.wait_room(lambda r: r["seats"][0]["wants_again"])
    assert waiting["game"]["number"] == 1
    await b.send(type="again")
    second = await a.wait_room(lambda r: r["game"]["number"] == 2)
    assert second["game"]["red_seat"] == 2 and second["game"]["to_move_seat"] == 2
    assert not any(seat["wants_again"] for seat in second["seats"])
    await play(a, b, "a1 b1 a1 b1 a1 b1 a1", first=b)
    await a.wait_room(lambda r: r["game"]["status"] == "won" and r["game"]["winner_seat"] == 2)
    await a.send(type="rules", alternate_first=False)
    await a.wait_room(lambda r: r["rules"]["alternate_first"] is False)
    await a.send(type="again")
    await b.send(type="again")
    third = await a.wait_room(lambda r: r["game"]["number"] == 3)
    assert third["game"]["red_seat"] == 1
    await a.close()
    await b.close()


async def test_solo_game_against_the_cpu_to_its_end():
    ann, key = await make_player_async("Ann")
    code = await make_room_async(ann, cpu_level=2)
    a = await Client(code, key).connect()
    await a.send(type="start")
    room = await a.wait_room(lambda r: r["game"] is not None)
    assert room["seats"][1]["cpu"] is True and room["game"]["threats"] == {"red": [], "yellow": []}
    rng = random.Random(4)
    while room["game"]["status"] == "playing":
        room = await a.wait_room(lambda r: r["game"]["status"] != "playing" or r["game"]["to_move_seat"] == 1)
        if room["game"]["status"] != "playing":
            break
        moves = room["game"]["moves"]
        legal = [p for p in (c + r for c in "abcd" for r in "1234") if moves.count(p) < 4]
        await a.drop(rng.choice(legal))
        room = await a.wait_room(lambda r, n=room["game"]["ply"]: r["game"]["ply"] > n)
    assert room["game"]["status"] in {"won", "drawn"}
    # the CPU seat is free again between games: a friend may take it
    _bob, bob_key = await make_player_async("Bob")
    b = await Client(code, bob_key).connect()
    await b.send(type="sit")
    await b.wait_room(lambda r: r["you"]["seat"] == 2 and r["seats"][1]["cpu"] is False)
    await a.close()
    await b.close()


async def test_racing_drops_from_two_tabs_drop_one_bead():
    code, a, b = await seated_pair()
    a2 = await Client(code, a.session_key).connect()
    await a.send(type="start")
    await a.wait_room(at_ply(0))
    await a2.wait_room(at_ply(0))
    await asyncio.gather(a.send(type="drop", peg="a1", ply=0), a2.send(type="drop", peg="b2", ply=0))
    await b.wait_room(at_ply(1))
    errors = []
    for client in (a, a2):
        await client.send(type="ping")  # answered after the drop: any error for it comes first
        await client.wait("pong")
        errors += [f["code"] for f in client.log if f["type"] == "error"]
    assert errors == ["stale"]
    await b.send(type="ping")
    await b.wait("pong")
    assert b.room["game"]["ply"] == 1 and len(b.room["game"]["moves"]) == 1
    for client in (a, a2, b):
        await client.close()


def test_frames_in_protocol_doc_are_valid_json():
    """Every JSON example in docs/protocol.md parses, so the doc cannot rot into pseudo-JSON."""
    from pathlib import Path

    text = Path(__file__).resolve().parents[3].joinpath("docs/protocol.md").read_text()
    blocks = [b.split("```", 1)[0] for b in text.split("```json")[1:]]
    assert blocks
    for block in blocks:
        json.loads(block)


async def test_spectators_count_people_not_tabs():
    code, a, b = await seated_pair()
    carl, carl_key = await make_player_async("Carl")
    c1 = await Client(code, carl_key).connect()
    c2 = await Client(code, carl_key).connect()
    anon = await Client(code, None).connect()
    await lobby_loop().presence.settle()  # the coalesced refresh of the count, now rather than in a second
    room = await a.wait_room(lambda r: r["spectators"] == 2)  # Carl in two tabs, and one anonymous viewer
    await a.send(type="ping")
    await a.wait("pong")
    assert a.room["version"] == room["version"] and max(r["spectators"] for r in a.rooms) == 2
    for client in (a, b, c1, c2, anon):
        await client.close()
