"""Every game a player played: the list's filters and pages, and the records stream (docs/records.md)."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import AsyncClient, Client

from games.models import Game
from lobby.play.moves import game_drop, game_resign, game_start
from lobby.rooms.services import room_create, room_sit
from players.models import Player
from players.services import player_create
from study.limits import records_stream_release, records_stream_take
from study.recordfile import record_parse
from tests.games.analysiskit import T0, at
from tests.records import RED_VERTICAL_WIN

pytestmark = pytest.mark.django_db


def play(red: Player, yellow: Player | None, record: str, *, start: int, paired: bool = False,
         resign: Player | None = None) -> Game:
    """A game in a room of its own (``yellow`` None: the CPU), ``record`` played from second ``start``."""
    code = room_create(host=red, guest=yellow if paired else None, rules={"ranked": False}, now=at(start)).code
    if yellow is not None and not paired:
        room_sit(code=code, player=yellow, now=at(start))
    game = game_start(code=code, player=red, now=at(start))
    for ply, peg in enumerate(record.split()):
        if yellow is None and ply % 2:
            continue
        game = game_drop(code=code, player=red if ply % 2 == 0 else yellow, peg=peg, ply=ply, now=at(start + ply + 1))
    if resign is not None:
        game_resign(code=code, player=resign, now=at(start + 50))
    game.refresh_from_db()
    return game


@pytest.fixture
def games() -> tuple[Player, Player, Player, list[Game]]:
    ann, bob, cat = (player_create(name=name, now=T0) for name in ("Ann", "Bob", "Cat"))
    made = [
        play(ann, bob, RED_VERTICAL_WIN, start=0),  # Ann wins, party
        play(bob, ann, RED_VERTICAL_WIN, start=100, paired=True),  # Ann loses, online
        play(ann, cat, "a1 b1", start=200, resign=ann),  # Ann loses to Cat
        play(ann, bob, "c3", start=300, resign=bob),  # Ann wins
    ]
    return ann, bob, cat, made


def listed(client: Client, player: Player, **query: str) -> list[str]:
    response = client.get(f"/api/players/{player.pk}/games", query)
    assert response.status_code == 200, response.content
    return [entry["game"] for entry in response.json()["games"]]


def test_filters_narrow_the_list_newest_first(games):
    ann, bob, cat, made = games
    client = Client()
    ids = [str(game.pk) for game in made]
    assert listed(client, ann) == ids[::-1]
    assert listed(client, ann, result="win") == [ids[3], ids[0]]
    assert listed(client, ann, result="loss") == [ids[2], ids[1]]
    assert listed(client, ann, result="draw") == []
    assert listed(client, ann, opponent=str(cat.pk)) == [ids[2]]
    assert listed(client, ann, kind="online") == [ids[1]]
    assert listed(client, ann, kind="party") == [ids[3], ids[2], ids[0]]
    assert listed(client, ann, ranked="true") == []
    assert listed(client, bob, result="win") == [ids[1]]
    entry = client.get(f"/api/players/{ann.pk}/games").json()["games"][-1]
    assert entry["red"]["player"]["name"] == "Ann" and entry["yellow"]["player"]["name"] == "Bob"
    assert (entry["result"], entry["reason"], entry["plies"], entry["colour"]) == ("win", "line", 7, "red")


def test_pages_hold_twenty(games):
    ann, bob, _, _ = games
    for n in range(19):
        play(ann, bob, "a1", start=1000 + 10 * n, resign=bob)
    client = Client()
    first = client.get(f"/api/players/{ann.pk}/games").json()
    second = client.get(f"/api/players/{ann.pk}/games", {"page": 2}).json()
    assert (first["count"], first["pages"], len(first["games"]), len(second["games"])) == (23, 2, 20, 3)
    assert {g["game"] for g in first["games"]}.isdisjoint(g["game"] for g in second["games"])


def test_bad_queries_are_refused(games):
    ann, *_ = games
    client = Client()
    assert client.get(f"/api/players/{ann.pk}/games", {"kind": "blitz"}).json()["code"] == "bad_request"
    assert client.get(f"/api/players/{ann.pk}/games", {"page": 0}).status_code == 400
    assert client.get("/api/players/nobody/games").status_code == 404


@pytest.mark.django_db(transaction=True)
async def test_the_records_stream_holds_every_game_newest_first_one_stream_at_a_time(games):
    ann, _, _, made = games
    client = AsyncClient()
    response = await client.get(f"/api/players/{ann.pk}/games.txt")
    assert response.status_code == 200
    text = b"".join([chunk async for chunk in response.streaming_content]).decode()
    records = [part for part in text.split("\n\n[") if part]
    assert len(records) == 4
    games_in_order = [record_parse(("" if i == 0 else "[") + r).headers["Game"] for i, r in enumerate(records)]
    assert games_in_order == [f"http://testserver/games/{game.pk}" for game in made[::-1]]
    limited = await client.get(f"/api/players/{ann.pk}/games.txt", {"max": "1", "since": at(150).isoformat()})
    assert b"".join([c async for c in limited.streaming_content]).decode().count("[Red ") == 1
    # While another stream of this address is open, a second one is refused.
    records_stream_take(address="127.0.0.1", holder="other")
    try:
        refused = await client.get(f"/api/players/{ann.pk}/games.txt")
        assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    finally:
        records_stream_release(address="127.0.0.1", holder="other")
    assert (await client.get(f"/api/players/{ann.pk}/games.txt", {"since": "yesterday"})).status_code == 400
    assert cache.get("study:records-stream:127.0.0.1") is None


@pytest.mark.django_db(transaction=True)
async def test_the_records_stream_refuses_with_the_api_s_one_body_status_and_retry_after(games):
    ann = games[0]
    client = AsyncClient()
    posted = await client.post(f"/api/players/{ann.pk}/games.txt")
    assert posted.status_code == 405 and posted.json() == {"code": "method_not_allowed",
                                                           "message": "Only GET is allowed here."}
    nobody = await client.get("/api/players/nobody/games.txt")
    assert nobody.status_code == 404 and nobody.json()["code"] == "no_player"
    records_stream_take(address="127.0.0.1", holder="other")
    try:
        refused = await client.get(f"/api/players/{ann.pk}/games.txt")
    finally:
        records_stream_release(address="127.0.0.1", holder="other")
    assert refused.status_code == 429 and refused["Retry-After"] == "5"
    assert refused.json() == {"code": "rate_limited",
                              "message": "One download of game records at a time. Try again in 5 seconds."}
