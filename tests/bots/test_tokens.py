"""Personal access tokens: made by a signed-in account and shown once, stored hashed, listed, revoked; heard
by the bot and challenge endpoints only."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone

from players.models import AccessToken
from players.services import player_ban
from players.tokens import digest_of
from tests.bots.botkit import Api, account, session_post, signed_in

pytestmark = pytest.mark.django_db


def test_a_token_is_shown_once_stored_hashed_listed_and_revoked():
    ann = account("ann")
    browser = signed_in(ann)
    made = session_post(browser, "/api/accounts/tokens", {"description": "my bot"})
    assert made.status_code == 201
    secret = made.json()["token"]
    assert secret.startswith("f4r_") and len(secret) > 40
    row = AccessToken.objects.get(pk=made.json()["id"])
    assert row.digest == digest_of(secret) and secret not in (row.digest, row.hint, row.description)
    listed = browser.get("/api/accounts/tokens").json()
    assert [t["description"] for t in listed] == ["my bot"] and "token" not in listed[0]
    assert listed[0]["hint"] == secret[-4:]

    api = Api(secret)
    assert api.get("/api/challenge").status_code == 200
    assert browser.delete(f"/api/accounts/tokens/{row.pk}",
                          HTTP_X_CSRFTOKEN=browser.cookies["csrftoken"].value).status_code == 204
    refused = api.get("/api/challenge")
    assert refused.status_code == 401 and refused.json()["code"] == "bad_token"
    assert browser.get("/api/accounts/tokens").json() == []
    again = browser.delete(f"/api/accounts/tokens/{row.pk}", HTTP_X_CSRFTOKEN=browser.cookies["csrftoken"].value)
    assert again.status_code == 404 and again.json()["code"] == "not_found"


def test_a_bad_token_is_refused_with_401():
    for header in ("Bearer f4r_nothing", "Bearer ", "bearer x"):
        answer = Client().post("/api/bot/account/upgrade", HTTP_AUTHORIZATION=header)
        assert answer.status_code == 401 and answer.json()["code"] == "bad_token", header
    assert Client().post("/api/bot/account/upgrade").json()["code"] == "no_token"


def test_a_banned_accounts_token_is_a_403_banned_over_rest_and_streams():
    ann = account("ann")
    secret = session_post(signed_in(ann), "/api/accounts/tokens", {"description": "x"}).json()["token"]
    player_ban(player=ann, now=timezone.now())
    for answer in (Api(secret).get("/api/challenge"), Api(secret).get("/api/stream/event")):
        assert answer.status_code == 403 and answer.json()["code"] == "banned"


def test_a_guest_has_no_tokens_and_a_token_cannot_make_tokens():
    guest = Client(enforce_csrf_checks=True)
    guest.get("/api/session")
    session_post(guest, "/api/session", {"name": "Guest"})
    refused = session_post(guest, "/api/accounts/tokens", {"description": "x"})
    assert refused.status_code == 403 and refused.json()["code"] == "account_required"

    ann = account("ann2")
    secret = session_post(signed_in(ann), "/api/accounts/tokens", {"description": "x"}).json()["token"]
    # Elsewhere a token is not heard: the request is a device without a session.
    assert Api(secret).post("/api/accounts/tokens", {"description": "y"}).status_code == 403
    assert Api(secret).get("/api/accounts/me").json()["player"] is None
    assert AccessToken.objects.filter(player=ann).count() == 1


def test_descriptions_and_the_number_of_tokens_are_bounded():
    browser = signed_in(account("ann3"))
    assert session_post(browser, "/api/accounts/tokens", {"description": ""}).json()["code"] == "bad_description"
    assert session_post(browser, "/api/accounts/tokens", {"description": "x" * 61}).status_code == 400
    for i in range(20):
        assert session_post(browser, "/api/accounts/tokens", {"description": f"t{i}"}).status_code == 201
    refused = session_post(browser, "/api/accounts/tokens", {"description": "one more"})
    assert refused.status_code == 400 and refused.json()["code"] == "too_many_tokens"


def test_streams_want_a_token_and_a_get():
    anonymous = Client().get("/api/stream/event")
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "no_token"
    wrong = Client().get("/api/bot/game/stream/x", HTTP_AUTHORIZATION="Bearer f4r_nothing")
    assert wrong.status_code == 401 and wrong.json()["code"] == "bad_token" and "Bearer" in wrong["WWW-Authenticate"]
    assert Client().post("/api/stream/event").status_code == 405
