"""A ranked game played over websockets moves both ratings exactly as Glicko-2 says."""

from __future__ import annotations

import pytest

from live.offload import offload
from ratings import glicko2
from ratings.models import PlayerRating, RatingChange
from tests.ratings.ratingkit import RED_WINS
from tests.roomkit import Client, make_player_async, make_room_async

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("runtime_cleanup")]


@offload
def stored_changes(game_id: str) -> dict[str, RatingChange]:
    return {change.colour: change for change in RatingChange.objects.filter(game_id=game_id)}


@offload
def stored_ratings() -> int:
    return PlayerRating.objects.count()


async def test_ranked_game_over_websockets_rates_both_players_as_glicko2():
    ann, ann_key = await make_player_async("Ann")
    bob, bob_key = await make_player_async("Bob")
    code = await make_room_async(ann, ranked=True)
    a = await Client(code, ann_key).connect()
    b = await Client(code, bob_key).connect()
    await b.send(type="sit")
    room = await a.wait_room(lambda r: r["seats"][1]["player"] is not None)

    # Before the game: both at 1500?, with what each result would change.
    expected = glicko2.expected_changes(glicko2.Rating(), glicko2.Rating())
    for seat in room["seats"]:
        assert seat["rating"]["display"] == "1500?"
        assert seat["rating"]["if_win"] == round(expected.win, 2)
        assert seat["rating"]["if_loss"] == round(expected.loss, 2)

    await a.send(type="start")
    for ply, peg in enumerate(RED_WINS.split()):
        who = a if ply % 2 == 0 else b  # Ann hosts in seat 1 and plays red in the first game
        await who.wait_room(lambda r, ply=ply: r["game"] is not None and r["game"]["ply"] == ply)
        await who.drop(peg)
    over = await a.wait_room(lambda r: r["game"]["status"] == "won")
    assert over["game"]["winner_seat"] == 1 and over["game"]["ranked"] is True
    # The end comes with the move: the seats show the ratings the game was played for until it is rated
    # (the post-game work, after commit); then the room is sent anew with the new ones.
    assert a.log[-1]["type"] == "move" and [seat["rating"]["display"] for seat in over["seats"]] == ["1500?"] * 2
    final = await a.wait_room(lambda r: r["seats"][0]["rating"]["rating"] != 1500.0)
    assert final["version"] > over["version"] and final["game"] == over["game"]

    changes = await stored_changes(final["game"]["id"])
    new_red, new_yellow = glicko2.rate_game(glicko2.Rating(), glicko2.Rating(), 1.0)
    red, yellow = changes["red"], changes["yellow"]
    assert (red.player_id, yellow.player_id) == (ann.id, bob.id)
    assert (red.rating_before, red.rd_before, yellow.rating_before, yellow.rd_before) == (1500.0, 350.0, 1500.0, 350.0)
    assert (red.rating_after, red.rd_after, red.volatility_after) == (new_red.rating, new_red.rd, new_red.volatility)
    assert (yellow.rating_after, yellow.rd_after, yellow.volatility_after) == (
        new_yellow.rating, new_yellow.rd, new_yellow.volatility,
    )
    assert red.change == new_red.rating - 1500.0 and yellow.change == new_yellow.rating - 1500.0
    assert await stored_ratings() == 2

    # The room sent once the game was rated shows the new ratings.
    assert final["seats"][0]["rating"]["rating"] == round(new_red.rating, 2)
    assert final["seats"][1]["rating"]["rating"] == round(new_yellow.rating, 2)
    await a.close()
    await b.close()
