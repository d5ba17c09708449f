"""The session (``/api/session``, ``players.session``): the device's player made, renamed and read, with
the parts the layers above add (its rating, its rooms) in the answer's order; what the schema says of it."""

from __future__ import annotations

import pytest
from django.test import Client

from players.session import SESSION_PARTS, in_order
from tests.accounts.accountkit import device as browser
from tests.accounts.accountkit import post

pytestmark = pytest.mark.django_db


@pytest.fixture
def device():
    return browser()


NO_PLAYER = {"player": None, "rating": None, "username": None, "rooms": []}


def test_session_lifecycle(device):
    first = device.get("/api/session")
    assert first.status_code == 200 and first.json() == NO_PLAYER  # a new device is no error
    created = post(device, "/api/session", {"name": "  Ann  "})
    assert created.status_code == 201
    player = created.json()["player"]
    assert player["name"] == "Ann"
    again = device.get("/api/session").json()
    assert again["player"] == player and again["rooms"] == [] and again["username"] is None
    assert again["rating"] == {"rating": 1500.0, "rd": 350.0, "provisional": True, "display": "1500?"}
    renamed = post(device, "/api/session", {"name": "Annie"})
    assert renamed.status_code == 200 and renamed.json()["player"] == {"id": player["id"], "name": "Annie"}


def test_two_guests_without_a_name_are_told_apart_by_their_ids_in_their_language():
    names = []
    for language in ("en", "en", "ja"):
        guest = Client(enforce_csrf_checks=True, headers={"Accept-Language": language})
        guest.get("/api/session")
        made = post(guest, "/api/session", {}).json()["player"]
        names.append(made["name"])
        code = made["id"][:4].upper()
        assert made["name"] == (f"Guest {code}" if language == "en" else f"ゲスト {code}")
        # The word "Guest" a page sends for a guest with no name is the same as none.
        assert post(browser(), "/api/session", {"name": "Guest"}).json()["player"]["name"].startswith("Guest ")
    assert names[0] != names[1]


def test_writes_without_csrf_token_are_refused(device):
    response = device.post("/api/session", {"name": "Ann"}, content_type="application/json")
    assert response.status_code == 403 and response.json()["code"] == "permission_denied"
    assert device.get("/api/session").json() == NO_PLAYER


@pytest.mark.parametrize("name", ["", "   ", "x" * 25, "a\u0000b", 7])
def test_bad_names_are_refused_clearly(device, name):
    response = post(device, "/api/session", {"name": name})
    assert response.status_code == 400
    assert response.json()["code"] in {"bad_name", "bad_request", "bad_text"}  # a NUL: bad_text, as in any text


def test_the_answer_reads_in_its_order_with_the_parts_of_the_layers_above(device):
    assert list(device.get("/api/session").json()) == ["player", "rating", "username", "rooms"]
    assert list(post(device, "/api/session", {"name": "Ann"}).json()) == ["player", "rating", "username", "rooms"]
    assert {part.key: part.build.__module__ for part in SESSION_PARTS} == {
        "rating": "ratings.views", "rooms": "lobby.rooms.views"}


def test_a_part_goes_after_the_field_it_names_and_a_field_never_named_is_an_error():
    assert list(in_order({"a": 1, "c": 3}, [("b", "a", 2), ("d", "c", 4)])) == ["a", "b", "c", "d"]
    with pytest.raises(ValueError):
        in_order({"a": 1}, [("b", "nothing", 2)])


def test_a_device_without_a_player_is_a_200_with_a_null_player():
    schema = Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    get = schema["paths"]["/api/session"]["get"]
    assert set(get["responses"]) == {"200"}
    session = schema["components"]["schemas"]["SessionOut"]
    assert list(session["properties"]) == ["player", "rating", "username", "rooms"]
    assert set(session["required"]) == set(session["properties"])
    assert session["properties"]["player"]["nullable"] is True
    assert session["properties"]["rating"]["nullable"] is True
