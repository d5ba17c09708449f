import pytest

from tests.roomkit import Client, make_player_async, make_room_async

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("scheduler_cleanup")]


async def test_two_players_play_to_a_win():
    ann, ann_key = await make_player_async("Ann")
    bob, bob_key = await make_player_async("Bob")
    code = await make_room_async(ann)
    a = await Client(code, ann_key).connect()
    b = await Client(code, bob_key).connect()
    await b.send(type="sit")
    await a.wait_room(lambda r: r["seats"][1]["player"] is not None)
    await a.send(type="start")
    await a.wait_room(lambda r: r["game"] is not None)
    for i, peg in enumerate(["a1", "b1", "a1", "b1", "a1", "b1", "a1"]):
        who = a if i % 2 == 0 else b
        await who.wait_room(lambda r, i=i: r["game"] is not None and r["game"]["ply"] == i)
        await who.drop(peg)
    final = await b.wait_room(lambda r: r["game"]["status"] == "won")
    assert final["game"]["winner_seat"] == 1
    await a.close()
    await b.close()
