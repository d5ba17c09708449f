"""Arenas over REST and on their websocket: the exact bodies, the errors, and the live loop pairing players."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import Client as HttpClient
from django.utils import timezone

from live.offload import offload
from tests.arenakit import PASSWORD, account, arena
from tests.roomkit import make_player_async
from tests.socketkit import SocketClient
from tournaments.models import ArenaGame

pytestmark = pytest.mark.django_db(transaction=True)

ARENA_KEYS = {"id", "name", "status", "starts_at", "ends_at", "minutes", "turn_seconds", "ranked", "berserk",
              "players", "standings", "podium"}
ROW_KEYS = {"rank", "player", "score", "games", "wins", "draws", "losses", "fire", "performance", "paused"}


def post(client, path, body=None):
    return client.post(path, data=json.dumps(body) if body is not None else "", content_type="application/json")


def logged_in(name):
    account(name)
    client = HttpClient()
    assert post(client, "/api/accounts/login", {"username": name, "password": PASSWORD}).status_code == 200
    return client


def test_create_needs_an_account_and_valid_fields_and_three_a_day():
    guest = HttpClient()
    body = {"name": "Tonight", "starts_at": None, "minutes": 30, "turn_seconds": 30, "ranked": True, "berserk": True}
    refused = post(guest, "/api/tournaments", body)
    assert (refused.status_code, refused.json()["code"]) == (403, "no_account")
    ann = logged_in("ann")
    for bad in ({**body, "minutes": 5}, {**body, "turn_seconds": None}, {**body, "name": ""}, [1],
                {**body, "starts_at": "tomorrow"}, {**body, "ranked": "yes"}, {**body, "extra": 1}):
        answer = post(ann, "/api/tournaments", bad)
        assert (answer.status_code, answer.json()["code"]) == (400, "bad_request"), bad
    created = post(ann, "/api/tournaments", body)
    assert created.status_code == 201
    assert set(created.json()) >= ARENA_KEYS
    assert created.json()["status"] == "started" and created.json()["podium"] is None
    later = (timezone.now() + timedelta(hours=2)).isoformat()
    assert post(ann, "/api/tournaments", {**body, "starts_at": later}).json()["status"] == "created"
    assert post(ann, "/api/tournaments", body).status_code == 201
    limited = post(ann, "/api/tournaments", body)
    assert limited.status_code == 429 and limited.json()["code"] == "rate_limited" and int(limited["Retry-After"]) > 0
    listed = HttpClient().get("/api/tournaments?limit=2").json()
    assert listed["count"] == 3 and len(listed["results"]) == 2
    assert [a["status"] for a in listed["results"]] == ["started", "started"]
    assert HttpClient().get("/api/tournaments?limit=0").json()["code"] == "bad_request"


def test_join_pause_withdraw_and_the_errors_over_rest():
    the_arena = arena()
    client = HttpClient()
    assert post(client, f"/api/tournaments/{the_arena.pk}/join").json()["code"] == "no_account"  # no player yet
    post(client, "/api/session", {"name": "Zoe"})
    joined = post(client, f"/api/tournaments/{the_arena.pk}/join").json()
    assert joined["players"] == 1 and set(joined["standings"][0]) >= ROW_KEYS and joined["me"]["rank"] == 1
    assert joined["standings"][0]["player"]["name"] == "Zoe"
    assert post(client, f"/api/tournaments/{the_arena.pk}/pause").json()["me"]["paused"] is True
    assert post(client, f"/api/tournaments/{the_arena.pk}/withdraw").json()["me"] is None
    refused = post(client, f"/api/tournaments/{the_arena.pk}/pause")
    assert (refused.status_code, refused.json()["code"]) == (409, "not_joined")
    missing = client.get("/api/tournaments/424242")
    assert (missing.status_code, missing.json()) == (404, {"code": "not_found", "message": "There is no such arena."})
    assert client.get("/api/tournaments/424242/games").status_code == 404
    assert client.get(f"/api/tournaments/{the_arena.pk}/games").json() == []
    assert client.get(f"/api/tournaments/{the_arena.pk}?page=x").status_code == 400


@pytest.fixture
def quick_waves(settings):
    settings.ARENA_WAVE_SECONDS = 0.5


class ArenaSocket(SocketClient):
    wait_s = 15.0

    def __init__(self, arena_id, session_key):
        super().__init__(f"/ws/tournaments/{arena_id}/", session_key)


@pytest.mark.usefixtures("runtime_cleanup", "quick_waves")
async def test_the_socket_shows_the_arena_pairs_players_and_takes_berserk():
    the_arena = await offload(arena)(berserk=True)
    (ann, ann_key), (bob, bob_key) = await make_player_async("Ann"), await make_player_async("Bob")
    watcher = await ArenaSocket(the_arena.pk, None).connect()
    first = await watcher.wait("tournament")
    assert set(first) >= ARENA_KEYS and first["me"] is None and first["players"] == 0
    sockets = [await ArenaSocket(the_arena.pk, key).connect() for key in (ann_key, bob_key)]
    from tournaments.services import arena_join

    for player in (ann, bob):
        await offload(arena_join)(arena_id=the_arena.pk, player=player, now=timezone.now())
    seen = await watcher.wait("tournament", lambda f: f["players"] == 2)
    assert [row["player"]["name"] for row in seen["standings"]] == ["Ann", "Bob"]
    paired = [await socket.wait("paired") for socket in sockets]  # the loop's wave, within a few seconds
    assert paired[0]["code"] == paired[1]["code"] and paired[0]["game"] == paired[1]["game"]
    row = await offload(ArenaGame.objects.select_related("red").get)(game_id=paired[0]["game"])
    red_socket = sockets[0] if row.red_id == ann.pk else sockets[1]
    await red_socket.send(type="berserk", game=paired[0]["game"])
    assert (await red_socket.wait("berserked"))["game"] == paired[0]["game"]
    await red_socket.send(type="berserk", game="nonsense")
    assert (await red_socket.wait("error"))["code"] == "bad_frame"
    mine = await red_socket.wait("tournament", lambda f: f["me"] and f["me"]["game"])
    assert mine["me"]["game"] == {"code": paired[0]["code"], "game": paired[0]["game"]}
    for socket in [watcher, *sockets]:
        await socket.comm.disconnect()


async def test_an_unknown_arena_closes_the_socket_with_4404():
    socket = await ArenaSocket(987654, None).connect()
    assert (await socket.wait("error"))["code"] == "not_found"
    assert (await socket.comm.receive_output(timeout=5))["code"] == 4404
