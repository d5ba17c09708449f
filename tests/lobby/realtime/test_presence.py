"""Presence over real websockets: a player leaves on their turn, the CPU stands in, they come back."""

from __future__ import annotations

import pytest

from tests.roomkit import Client, at_ply, make_player_async, make_room_async, seated_pair

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("runtime_cleanup")]


async def test_away_stand_in_and_reclaim_on_the_same_device(settings):
    settings.DISCONNECT_GRACE_SECONDS = 0.5
    code, a, b = await seated_pair()
    bob_key = b.session_key
    await a.send(type="start")
    await a.wait_room(at_ply(0))
    await b.close()  # Bob leaves while Ann thinks: no countdown on Ann's turn
    room = await a.wait_room(lambda r: not r["seats"][1]["connected"])
    assert room["seats"][1]["away_at"] is None and not room["seats"][1]["away"]
    await a.drop("a1")
    # Bob's turn: his grace period runs, then the CPU plays for him
    away = await a.wait("notice", lambda f: f["code"] == "away")
    assert away == {"type": "notice", "code": "away", "seat": 2}
    room = await a.wait_room(lambda r: r["game"]["ply"] == 2)
    assert room["seats"][1]["away"] is True
    await a.drop("a2")
    await a.wait_room(at_ply(4))  # and keeps playing his turns
    # Bob reopens the room on the same device: the seat is his again at once
    b2 = await Client(code, bob_key).connect()
    assert b2.room["you"]["seat"] == 2
    back = await a.wait("notice", lambda f: f["code"] == "back")
    assert back["seat"] == 2
    room = await a.wait_room(lambda r: r["seats"][1]["connected"] and not r["seats"][1]["away"])
    await a.drop("a3")
    await b2.wait_room(at_ply(5))
    await b2.drop("d4")
    await a.wait_room(at_ply(6))
    await a.close()
    await b2.close()


async def test_a_second_tab_shares_the_seat_and_closing_one_keeps_it_connected(settings):
    settings.DISCONNECT_GRACE_SECONDS = 0.3
    ann, ann_key = await make_player_async("Ann")
    bob, bob_key = await make_player_async("Bob")
    code = await make_room_async(ann)
    a = await Client(code, ann_key).connect()
    a2 = await Client(code, ann_key).connect()
    assert a2.room["you"]["seat"] == 1
    b = await Client(code, bob_key).connect()
    await b.send(type="sit")
    await a.wait_room(lambda r: r["seats"][1]["connected"])
    await a.send(type="start")
    await a.close()
    room = await b.wait_room(lambda r: r["game"] is not None)
    assert room["seats"][0]["connected"] is True  # the other tab is still open
    await a2.wait_room(at_ply(0))
    await a2.drop("c2")
    await b.wait_room(at_ply(1))
    await a2.close()
    await b.close()
