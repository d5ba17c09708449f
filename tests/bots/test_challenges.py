"""Challenges: a person (session) or a bot (token) challenges an account; accepting makes an ordinary room and
game; declines, cancels and the refusals."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.utils import timezone

from bots import challenges
from bots.accounts import bot_upgrade
from bots.models import Challenge, ChallengeStatus
from common.errors import RateLimited, Refused
from games.models import Game, GameStatus
from lobby.models import Room
from lobby.rooms.limits import rooms_create_quota_take
from players.services import player_ban
from players.social import block_add
from tests.bots.botkit import NOW, Api, account, bot, session_post, signed_in, token_for
from tests.racekit import race

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


# --- limits and the rules checked again on accepting -----------------------------------------------------------
def test_challenges_created_per_challenger_are_limited_per_hour(settings):
    settings.CHALLENGES_PER_HOUR_PER_PLAYER = 5
    ann, bob = account("ann"), account("bob")
    for _ in range(5):  # a create-and-cancel loop: each creation counts, whatever became of it
        made = challenges.challenge_create(challenger=ann, username="bob", now=NOW)
        challenges.challenge_cancel(challenge_id=made.pk, player=ann, now=NOW)
    with pytest.raises(RateLimited) as refused:
        challenges.challenge_create(challenger=ann, username="bob", now=NOW + timedelta(minutes=30))
    assert refused.value.retry_after > 0
    # Another challenger is not held back, and the hour passes for ann.
    assert challenges.challenge_create(challenger=bob, username="ann", now=NOW).status == "created"
    assert challenges.challenge_create(challenger=ann, username="bob", now=NOW + timedelta(hours=2))


def test_challenges_created_per_address_are_limited_and_answered_429(settings):
    settings.CHALLENGES_PER_HOUR_PER_ADDRESS = 3
    account("ann")
    answers = []
    for i in range(4):  # four guests of one address
        guest = Client(enforce_csrf_checks=True, REMOTE_ADDR="10.9.9.9")
        guest.get("/api/session")
        session_post(guest, "/api/session", {"name": f"G{i}"})
        answers.append(session_post(guest, "/api/challenge/ann", {"turn_seconds": 30}))
    assert [a.status_code for a in answers] == [201, 201, 201, 429]
    assert answers[-1].json()["code"] == "rate_limited" and int(answers[-1]["Retry-After"]) > 0


def test_a_players_inbox_holds_a_bounded_number_of_waiting_challenges(settings):
    settings.CHALLENGES_WAITING_PER_PLAYER = 3
    ann = account("ann")
    senders = [account(f"sender{i}") for i in range(4)]
    for sender in senders[:3]:
        challenges.challenge_create(challenger=sender, username="ann", now=NOW)
    with pytest.raises(Refused) as refused:
        challenges.challenge_create(challenger=senders[3], username="ann", now=NOW)
    assert refused.value.code == "inbox_full"
    # An answered challenge frees its place.
    first = Challenge.objects.filter(dest=ann).first()
    challenges.challenge_decline(challenge_id=first.pk, player=ann, now=NOW)
    assert challenges.challenge_create(challenger=senders[3], username="ann", now=NOW).status == "created"


def test_the_default_inbox_cap_is_fifty():
    assert django_settings.CHALLENGES_WAITING_PER_PLAYER == 50


def test_accepted_challenges_count_against_the_room_quotas(settings):
    settings.ROOMS_PER_HOUR_PER_DEVICE = 2
    ann, bob = account("ann"), account("bob")
    for _ in range(2):
        made = challenges.challenge_create(challenger=ann, username="bob", now=NOW)
        challenges.challenge_accept(challenge_id=made.pk, player=bob, now=NOW, address="10.1.1.1")
    third = challenges.challenge_create(challenger=ann, username="bob", now=NOW)
    with pytest.raises(RateLimited):
        challenges.challenge_accept(challenge_id=third.pk, player=bob, now=NOW, address="10.1.1.1")
    assert Challenge.objects.get(pk=third.pk).status == "created" and Room.objects.count() == 2
    # The quota is the one making rooms counts: ann's two games spent hers there too.
    with pytest.raises(RateLimited):
        rooms_create_quota_take(address=None, player_ids=[str(ann.pk)], now=NOW)


def test_a_bot_accepting_spends_only_the_challengers_room_quota(settings):
    settings.ROOMS_PER_HOUR_PER_DEVICE = 2
    robo, _ = bot("robo")
    people = [account(f"person{i}") for i in range(3)]
    for person in people:  # three challengers, one room each: the bot is not held to a person's quota
        made = challenges.challenge_create(challenger=person, username="robo", turn_seconds=30, now=NOW)
        challenges.challenge_accept(challenge_id=made.pk, player=robo, now=NOW, address="10.2.2.2")
    assert Room.objects.count() == 3


def test_a_banned_players_waiting_challenges_end_and_cannot_be_accepted():
    ann, bob, cyd, dan = account("ann"), account("bob"), account("cyd"), account("dan")
    # The banned player plays Yellow each time: the room's host (Red) is not the one banned.
    from_ann = challenges.challenge_create(challenger=ann, username="bob", colour="yellow", now=NOW)
    to_dan = challenges.challenge_create(challenger=cyd, username="dan", colour="red", now=NOW)
    player_ban(player=ann, now=NOW)
    player_ban(player=dan, now=NOW)
    # The ban ended them (players.services.PLAYER_ENDED): the one sent canceled, the one received declined.
    assert Challenge.objects.get(pk=from_ann.pk).status == ChallengeStatus.CANCELED
    assert Challenge.objects.get(pk=to_dan.pk).status == ChallengeStatus.DECLINED
    for challenge, accepter in ((from_ann, bob), (to_dan, dan)):  # the challenger banned; the accepter banned
        accepter.refresh_from_db()
        with pytest.raises(Refused) as refused:
            challenges.challenge_accept(challenge_id=challenge.pk, player=accepter, now=NOW)
        assert refused.value.code == "challenge_over"
    # One made since (the check on accepting stands): refused banned.
    late = Challenge.objects.create(challenger=cyd, dest=dan, turn_seconds=60, ranked=False, colour="red",
                                    created_at=NOW, updated_at=NOW)
    with pytest.raises(Refused) as refused:
        challenges.challenge_accept(challenge_id=late.pk, player=dan, now=NOW)
    assert refused.value.code == "banned"
    assert not Room.objects.exists()


def test_a_timerless_challenge_is_refused_once_its_target_became_a_bot():
    ann, robo = account("ann"), account("robo")
    # Made now: accepted over HTTP (at the clock's time), it must not have expired yet.
    made = challenges.challenge_create(challenger=ann, username="robo", turn_seconds=None, now=timezone.now())
    bot_upgrade(player=robo, now=NOW)
    answer = Api(token_for(robo)).post(f"/api/challenge/{made.pk}/accept")
    assert (answer.status_code, answer.json()["code"]) == (400, "timer_required")
    assert not Game.objects.exists() and Challenge.objects.get(pk=made.pk).status == "created"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_racing_challengers_never_overfill_an_inbox(settings):
    settings.CHALLENGES_WAITING_PER_PLAYER = 2
    account("ann")
    senders = [account(f"racer{i}") for i in range(6)]
    outcomes = race(*[(lambda s=s: challenges.challenge_create(challenger=s, username="ann", now=NOW).status)
                      for s in senders])
    assert sorted(map(str, outcomes)) == ["created", "created", "inbox_full", "inbox_full", "inbox_full",
                                          "inbox_full"]
    assert Challenge.objects.filter(status="created").count() == 2


def test_a_block_declines_the_blocked_players_waiting_challenges_as_a_person_would(ann_and_robo):
    ann, browser, robo, api = ann_and_robo
    made = session_post(browser, "/api/challenge/robo", {"turn_seconds": 30}).json()
    block_add(blocker=robo, blocked_id=ann.pk, now=timezone.now())
    shown = browser.get(f"/api/challenge/{made['id']}/show").json()
    assert (shown["status"], shown["decline_reason"]) == ("declined", "generic")
    assert api.get("/api/challenge").json()["in"] == []
