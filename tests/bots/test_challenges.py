"""Challenges: a person (session) or a bot (token) challenges an account; accepting makes an ordinary room and
game; declines, cancels and the refusals."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone

from bots.models import Challenge
from games.models import Game, GameStatus
from lobby.models import Room
from players.social import block_add
from tests.bots.botkit import Api, account, bot, session_post, signed_in, token_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def ann_and_robo():
    ann = account("ann")
    robo, secret = bot("robo")
    return ann, signed_in(ann), robo, Api(secret)


def test_a_person_challenges_a_bot_which_accepts_into_an_ordinary_room(ann_and_robo):
    ann, browser, robo, api = ann_and_robo
    made = session_post(browser, "/api/challenge/ROBO", {"turn_seconds": 30, "ranked": True, "colour": "red"})
    assert made.status_code == 201, made.content
    challenge = made.json()
    assert challenge["status"] == "created" and challenge["dest"]["title"] == "BOT"
    assert challenge["challenger"] == {"id": str(ann.id), "name": "ann", "title": None, "username": "ann",
                                       "rating": "1500?"}
    assert [c["id"] for c in api.get("/api/challenge").json()["in"]] == [challenge["id"]]

    accepted = api.post(f"/api/challenge/{challenge['id']}/accept")
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"
    room = Room.objects.get(code=accepted.json()["room"])
    assert (room.host_id, room.turn_seconds, room.ranked) == (ann.id, 30, True)
    game = Game.objects.get(pk=accepted.json()["game"])
    assert (game.red_player_id, game.yellow_player_id, game.status) == (ann.id, robo.id, GameStatus.PLAYING)
    assert game.ranked and not (game.red_cpu or game.yellow_cpu)
    # The page polls the challenge for its room.
    assert browser.get(f"/api/challenge/{challenge['id']}/show").json()["room"] == room.code
    again = api.post(f"/api/challenge/{challenge['id']}/accept")
    assert again.status_code == 409 and again.json()["code"] == "challenge_over"


def test_a_game_with_a_bot_needs_a_turn_timer_and_sane_rules(ann_and_robo):
    ann, browser, robo, api = ann_and_robo
    for body, code in (
        ({"turn_seconds": None}, "timer_required"),
        ({"turn_seconds": 45}, "bad_rules"),
        ({"turn_seconds": 30, "ranked": "yes"}, "bad_rules"),
        ({"turn_seconds": 30, "colour": "blue"}, "bad_rules"),
    ):
        answer = session_post(browser, "/api/challenge/robo", body)
        assert (answer.status_code, answer.json()["code"]) == (400, code), body
    assert session_post(browser, "/api/challenge/nobody", {}).status_code == 404
    assert session_post(browser, "/api/challenge/ann", {}).json()["code"] == "self_challenge"
    # Between people a game may go without a timer.
    account("bob")
    assert session_post(browser, "/api/challenge/bob", {"turn_seconds": None}).status_code == 201


def test_decline_with_a_reason_cancel_and_who_may_do_what(ann_and_robo):
    ann, browser, robo, api = ann_and_robo
    first = session_post(browser, "/api/challenge/robo", {"turn_seconds": 60}).json()["id"]
    # The challenger neither accepts nor declines; the challenged does not cancel.
    assert session_post(browser, f"/api/challenge/{first}/accept").json()["code"] == "not_yours"
    assert api.post(f"/api/challenge/{first}/cancel").json()["code"] == "not_yours"
    assert api.post(f"/api/challenge/{first}/decline", {"reason": "sulk"}).json()["code"] == "bad_reason"
    declined = api.post(f"/api/challenge/{first}/decline", {"reason": "rated"}).json()
    assert (declined["status"], declined["decline_reason"]) == ("declined", "rated")

    second = session_post(browser, "/api/challenge/robo", {"turn_seconds": 60}).json()["id"]
    assert session_post(browser, f"/api/challenge/{second}/cancel").json()["status"] == "canceled"
    assert api.post(f"/api/challenge/{second}/accept").json()["code"] == "challenge_over"
    # A third party sees nothing.
    other = Api(token_for(account("eve")))
    assert other.get(f"/api/challenge/{second}/show").status_code == 404
    assert Challenge.objects.filter(status="created").count() == 0


def test_bots_challenge_bots_with_their_tokens_and_open_challenges_are_bounded():
    robo, secret = bot("robo")
    bobo, _ = bot("bobo")
    api = Api(secret)
    made = api.post("/api/challenge/bobo", {"turn_seconds": 30, "ranked": True})
    assert made.status_code == 201 and made.json()["challenger"]["title"] == "BOT"
    for _ in range(9):
        assert api.post("/api/challenge/bobo", {"turn_seconds": 30}).status_code == 201
    refused = api.post("/api/challenge/bobo", {"turn_seconds": 30})
    assert refused.status_code == 400 and refused.json()["code"] == "too_many_challenges"


def test_a_session_write_without_csrf_is_refused(ann_and_robo):
    ann, browser, robo, api = ann_and_robo
    answer = browser.post("/api/challenge/robo", {"turn_seconds": 30}, content_type="application/json")
    assert answer.status_code == 403
    assert not Challenge.objects.exists()


def test_a_guest_challenges_a_bot_from_its_device():
    robo, secret = bot("robo")
    guest = Client(enforce_csrf_checks=True)
    guest.get("/api/session")
    session_post(guest, "/api/session", {"name": "Visitor"})
    made = session_post(guest, "/api/challenge/robo", {"turn_seconds": 30})
    assert made.status_code == 201, made.content
    assert made.json()["challenger"]["username"] is None and made.json()["challenger"]["name"] == "Visitor"
    accepted = Api(secret).post(f"/api/challenge/{made.json()['id']}/accept")
    assert accepted.status_code == 200 and accepted.json()["room"]


def test_a_blocked_player_cannot_challenge_and_is_told_no_more_than_that(ann_and_robo):
    ann, browser, robo, api = ann_and_robo
    block_add(blocker=robo, blocked_id=ann.pk, now=timezone.now())
    refused = session_post(browser, "/api/challenge/robo", {"turn_seconds": 30})
    assert (refused.status_code, refused.json()) == (403, {
        "code": "blocked", "message": "This player does not accept challenges from you."})
    assert not Challenge.objects.exists()
    # The other way round is open: a block keeps the blocked one away, not the blocker.
    assert api.post("/api/challenge/ann", {"turn_seconds": 30}).status_code == 201
