"""GET/PATCH /api/preferences: the defaults, a guest's kept with its player, an account's on every device."""

from __future__ import annotations

import pytest
from django.test import Client

from players.models import Preferences
from players.preferences import DEFAULTS
from tests.bots.botkit import account, signed_in

pytestmark = pytest.mark.django_db


def patch(client: Client, data: object):  # type: ignore[no-untyped-def]
    return client.patch("/api/preferences", data, content_type="application/json",
                        HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)


def guest() -> Client:
    client = Client(enforce_csrf_checks=True)
    client.get("/api/session")
    answer = client.post("/api/session", {"name": "Ann"}, content_type="application/json",
                         HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)
    assert answer.status_code in (200, 201)
    return client


def test_a_device_without_a_player_reads_the_defaults_and_cannot_change_them():
    client = Client(enforce_csrf_checks=True)
    client.get("/api/session")
    assert client.get("/api/preferences").json() == DEFAULTS
    answer = patch(client, {"theme": "dark"})
    assert (answer.status_code, answer.json()["code"]) == (404, "no_player")


def test_a_guest_keeps_its_changes_and_bad_ones_change_nothing():
    client = guest()
    answer = patch(client, {"theme": "dark", "volume": 40, "premove": True})
    assert answer.status_code == 200
    assert answer.json() == {**DEFAULTS, "theme": "dark", "volume": 40, "premove": True}
    for bad in ({"theme": "pink"}, {"volume": 101}, {"volume": True}, {"sound": "yes"}, {"colour": 1}, [1]):
        refused = patch(client, bad)
        assert (refused.status_code, refused.json()["code"]) == (400, "bad_request"), bad
    assert "theme: system, light or dark" in patch(client, {"theme": "pink", "board": "2d"}).json()["message"]
    assert client.get("/api/preferences").json()["theme"] == "dark"
    patch(client, {"theme": "system"})  # back to a default: no longer stored
    assert Preferences.objects.get().values == {"volume": 40, "premove": True}


def test_an_accounts_preferences_follow_it_to_every_device():
    ann = account("ann")
    laptop, phone = signed_in(ann), signed_in(ann)
    assert patch(laptop, {"board": "top", "confirm_move": False}).status_code == 200
    assert phone.get("/api/preferences").json() == {**DEFAULTS, "board": "top", "confirm_move": False}


def test_blind_mode_is_a_preference_off_by_default_and_only_true_or_false():
    client = guest()
    assert client.get("/api/preferences").json()["blind"] is False
    refused = patch(client, {"blind": "yes"})
    assert (refused.status_code, refused.json()["code"]) == (400, "bad_request")
    assert patch(client, {"blind": True}).json()["blind"] is True
    assert client.get("/api/preferences").json()["blind"] is True
