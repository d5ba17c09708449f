"""The REST API of the lobby and games: rooms, game records, CSRF (the session: tests/players/test_session.py)."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture
def device():
    """A browser-like client that enforces CSRF like a real browser session would."""
    client = Client(enforce_csrf_checks=True)
    client.get("/api/session")
    return client


def post(client, url, data):
    return client.post(url, data, content_type="application/json", HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)


def test_create_room_with_defaults(device):
    response = post(device, "/api/rooms", {})
    assert response.status_code == 201
    room = response.json()
    assert room["type"] == "room"
    assert room["rules"] == {"turn_seconds": None, "days_per_move": None,
                             "alternate_first": True, "ranked": True, "cpu_level": 3,
                             "spectator_chat": True, "open": False}
    code = room["code"]
    assert len(code) == 6 and not set(code) & set("01OI")
    assert room["you"]["seat"] == 1 and room["host"] == room["you"]["player"]
    assert device.get(f"/api/rooms/{code}").json()["you"]["seat"] == 1
    assert device.get(f"/api/rooms/{code.lower()}").status_code == 200
    session = device.get("/api/session").json()
    assert session["rooms"] == [{"code": code, "seat": 1, "playing": False}]


def test_room_codes_differ(device):
    codes = {post(device, "/api/rooms", {}).json()["code"] for _ in range(20)}
    assert len(codes) == 20


@pytest.mark.parametrize(
    "rules",
    [{"turn_seconds": 45}, {"cpu_level": 0}, {"cpu_level": 6}, {"ranked": "yes"}, {"colour": "red"},
     {"spectator_chat": "no"},
     {"turn_seconds": True}, [1, 2],
     # A float equal to a choice is not one: it was stored and sent as 30.0 where pages expect integers.
     {"turn_seconds": 30.0}, {"cpu_level": 3.0}, {"days_per_move": 3.0}],
)
def test_bad_house_rules_are_refused(device, rules):
    response = post(device, "/api/rooms", rules)
    assert response.status_code == 400 and response.json()["code"] == "bad_rules"


def test_room_seen_by_another_device_and_unknown_room(device):
    code = post(device, "/api/rooms", {"turn_seconds": 30, "cpu_level": 5}).json()["code"]
    other = Client()
    seen = other.get(f"/api/rooms/{code}").json()
    assert seen["you"] == {"player": None, "seat": None}
    assert seen["rules"]["turn_seconds"] == 30
    assert other.get("/api/rooms/ZZZZZZ").status_code == 404


def test_game_record(device):
    from django.utils import timezone

    from lobby.play.moves import game_drop, game_start
    from players.models import Player

    code = post(device, "/api/rooms", {}).json()["code"]
    player = Player.objects.get()
    game = game_start(code=code, player=player, now=timezone.now())
    game_drop(code=code, player=player, peg="c2", ply=0, now=timezone.now())
    record = device.get(f"/api/games/{game.id}").json()
    assert record["status"] == "playing" and record["room"] == code
    named = {"id": str(player.id), "name": f"Guest {player.id.hex[:4].upper()}"}
    assert record["players"]["red"] == {"seat": 1, "player": named, "cpu": False}
    assert record["players"]["yellow"]["cpu"] is True and record["ranked"] is False
    assert record["moves"][0]["peg"] == "c2" and record["moves"][0]["cpu"] is False
    assert device.get("/api/games/not-a-uuid").status_code == 404
    assert device.get("/api/games/00000000-0000-0000-0000-000000000000").status_code == 404
