"""The challenge inbox: who is notified of a challenge and its answer, and expiry (after
CHALLENGE_TTL_SECONDS: status expired, the challenger told once, no longer open, listed or answerable)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from bots import protocol
from bots.challenges import MAX_OPEN, challenge_accept, challenge_create, challenge_decline, challenges_expire
from bots.models import Challenge, ChallengeStatus
from common.iso import iso
from notifications.models import Notification
from tests.bots.botkit import account, session_post, signed_in

pytestmark = pytest.mark.django_db

TTL = 1200


def told(player):
    """``(kind, text, url, read)`` of each of the player's notifications, oldest first."""
    return [(n.kind, n.text, n.url, n.read_at is not None) for n in Notification.objects.filter(player=player)
            .order_by("id")]


@pytest.fixture
def ann_bob():
    return account("ann"), account("bob")


def test_the_challenged_is_notified_and_the_challenger_told_of_the_acceptance(ann_bob):
    ann, bob = ann_bob
    now = timezone.now()
    challenge = challenge_create(challenger=ann, username="bob", turn_seconds=30, ranked=True, now=now)
    assert told(bob) == [("challenge", "ann (1500?) challenges you: 30 s a move, ranked.", "/challenges", False)]
    data = Notification.objects.get(player=bob).data["challenge"]
    assert data["id"] == challenge.pk and data["challenger"]["name"] == "ann"
    assert data["expires_at"] == iso(now + timedelta(seconds=TTL))
    accepted = challenge_accept(challenge_id=challenge.pk, player=bob, now=now)
    assert told(ann) == [("challenge_accepted", "bob accepted your challenge: to the game!",
                          f"/r/{accepted.room_code}", False)]
    assert told(bob)[0][3] is True  # answered: the challenged's notification of it no longer waits


def test_a_decline_tells_the_challenger_why(ann_bob):
    ann, bob = ann_bob
    now = timezone.now()
    challenge = challenge_create(challenger=ann, username="bob", now=now)
    challenge_decline(challenge_id=challenge.pk, player=bob, reason="later", now=now)
    assert told(ann) == [("challenge_declined", "bob cannot play now: try later.", f"/players/{bob.pk}", False)]


def test_a_challenge_expires_once_after_its_time_and_the_challenger_is_told(ann_bob):
    ann, bob = ann_bob
    made = timezone.now()
    challenge = challenge_create(challenger=ann, username="bob", now=made)
    assert challenges_expire(now=made + timedelta(seconds=TTL - 1)) == 0
    assert challenges_expire(now=made + timedelta(seconds=TTL)) == 1
    assert challenges_expire(now=made + timedelta(seconds=TTL + 1)) == 0  # once
    assert Challenge.objects.get(pk=challenge.pk).status == ChallengeStatus.EXPIRED
    assert told(ann) == [("challenge_expired", "Your challenge to bob expired unanswered.", "/challenges", False)]
    assert told(bob) == [("challenge", "ann (1500?) challenges you: 60 s a move, casual.", "/challenges", True)]
    line = protocol.challenge_line(Notification.objects.get(player=ann).data["challenge"])
    assert (line["type"], line["challenge"]["status"]) == ("challengeCanceled", "expired")


def test_a_challenge_past_its_time_is_over_before_any_sweep(ann_bob, settings):
    ann, bob = ann_bob
    settings.CHALLENGE_TTL_SECONDS = 60
    long_ago = timezone.now() - timedelta(seconds=61)
    old = [challenge_create(challenger=ann, username="bob", now=long_ago) for _ in range(MAX_OPEN)]
    # Not counted against the open ones, not listed, not answerable: the sweep has not run yet.
    fresh = session_post(signed_in(ann), "/api/challenge/bob", {})
    assert fresh.status_code == 201
    browser = signed_in(bob)
    assert [c["id"] for c in browser.get("/api/challenge").json()["in"]] == [fresh.json()["id"]]
    answer = session_post(browser, f"/api/challenge/{old[0].pk}/accept")
    assert (answer.status_code, answer.json()["code"]) == (409, "challenge_over")
    assert "expired" in answer.json()["message"]
    assert Challenge.objects.get(pk=old[0].pk).status == ChallengeStatus.CREATED  # until the sweep marks it
