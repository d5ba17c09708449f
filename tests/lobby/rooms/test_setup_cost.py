"""What a game's set-up costs in queries, step by step as a page takes it (``harness.bench.game``): a new
device's session and guest player, its room, the guest's seat and the game's start."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from lobby.play.moves import game_start
from lobby.rooms.services import room_sit
from players.models import Player

# Outside a test's transaction, as a server runs them: a write alone is one statement, not a savepoint.
pytestmark = pytest.mark.django_db(transaction=True)


def post(client: Client, url: str, data: dict) -> dict:
    response = client.post(url, data, content_type="application/json",
                           HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)
    assert response.status_code in {200, 201}, response.content
    return response.json()


def statements(run) -> tuple[object, list[str]]:
    """What ``run()`` returns and the statements it ran (BEGIN and COMMIT too: each is a round trip)."""
    with CaptureQueriesContext(connection) as captured:
        result = run()
    return result, [q["sql"].split()[0].upper() for q in captured.captured_queries]


def a_device_with_a_player(name: str) -> tuple[Client, dict]:
    device = Client(enforce_csrf_checks=True)
    device.get("/api/session")
    return device, post(device, "/api/session", {"name": name})


def test_a_new_device_becomes_a_player_in_two_statements():
    device = Client(enforce_csrf_checks=True)
    _, first = statements(lambda: device.get("/api/session"))
    assert first == []  # no session, no player: the CSRF cookie alone
    answer, made = statements(lambda: post(device, "/api/session", {"name": "Ann"}))
    assert answer["player"]["name"] == "Ann" and answer["rooms"] == [] and answer["rating"]["display"] == "1500?"
    assert made == ["INSERT", "INSERT"]  # the player, the session (its key not looked up first)


def test_a_known_device_is_read_with_its_player_and_preferences_once():
    device, _ = a_device_with_a_player("Ann")
    answer, read = statements(lambda: device.get("/api/session"))
    assert answer.json()["player"]["name"] == "Ann"
    # The session; the player with its account and preferences (the language's too); the rating; the rooms.
    assert read == ["SELECT"] * 4


def test_a_room_is_made_and_shown_from_the_rows_it_wrote():
    device, _ = a_device_with_a_player("Ann")
    room, made = statements(lambda: post(device, "/api/rooms", {"ranked": False}))
    assert room["type"] == "room" and room["seats"][0]["player"]["name"] == "Ann" and room["seats"][1]["player"] is None
    # The session, the player (once for the language and the view), then the room and its seats: not read again.
    assert made == ["SELECT", "SELECT", "BEGIN", "INSERT", "INSERT", "COMMIT"]
    assert post(device, "/api/session", {})["rooms"] == [{"code": room["code"], "seat": 1, "playing": False}]


def test_the_guest_sits_and_the_host_starts():
    host, ann = a_device_with_a_player("Ann")
    _, bob = a_device_with_a_player("Bob")
    code = post(host, "/api/rooms", {"ranked": False})["code"]
    guest, hosting = Player.objects.get(pk=bob["player"]["id"]), Player.objects.get(pk=ann["player"]["id"])
    _, sat = statements(lambda: room_sit(code=code, player=guest, now=timezone.now()))
    assert len(sat) == 10  # BEGIN, the room locked, its seats, its game, the sitter locked, the sitter's
    # connection, the seat, the spectators counted, the room's version, COMMIT: the snapshot from those rows
    game, started = statements(lambda: game_start(code=code, player=hosting, now=timezone.now()))
    assert game.status == "playing"
    assert len(started) == 7  # BEGIN, the room, its game, its seats, the game, the version, COMMIT
