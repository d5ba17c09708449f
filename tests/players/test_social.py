"""Follows, blocks and the search for a player over HTTP: the rules, the limits, the refusals."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from bots.models import Challenge
from players import limits, social
from players.models import Follow
from players.services import player_create
from tests.bots.botkit import account, bot, session_post, signed_in

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_counted_requests():
    cache.clear()
    yield
    cache.clear()


def delete(client: Client, path: str):  # type: ignore[no-untyped-def]
    return client.delete(path, HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)


def refused(answer, status: int, code: str) -> None:  # type: ignore[no-untyped-def]
    assert (answer.status_code, answer.json()["code"]) == (status, code), answer.content
    assert answer.json()["message"]


def test_follow_unfollow_and_the_counts_on_the_player_page():
    ann, bob = account("ann"), account("bob")
    browser = signed_in(ann)
    followed = session_post(browser, f"/api/players/{bob.id}/follow")
    assert followed.status_code == 200 and followed.json() == {"following": True, "blocked": False, "followers": 1}
    assert session_post(browser, f"/api/players/{bob.id}/follow").json()["followers"] == 1  # twice is once
    assert browser.get(f"/api/players/{bob.id}/follow").json()["following"] is True
    page = Client().get(f"/api/players/{bob.id}").json()
    assert (page["followers"], page["following"]) == (1, 0)
    assert Client().get(f"/api/players/{ann.id}").json()["following"] == 1
    [friend] = browser.get("/api/my/following").json()
    assert friend["player"]["id"] == str(bob.id) and friend["player"]["bot"] is False
    assert friend["player"]["rating"]["display"] == "1500?"
    assert (friend["online"], friend["playing"]) == (False, None)

    unfollowed = delete(browser, f"/api/players/{bob.id}/follow")
    assert unfollowed.json() == {"following": False, "blocked": False, "followers": 0}
    assert browser.get("/api/my/following").json() == []


def test_only_accounts_follow_and_block_and_nobody_follows_themself():
    ann = account("ann")
    guest_browser = Client(enforce_csrf_checks=True)
    guest_browser.get("/api/session")
    session_post(guest_browser, "/api/session", {"name": "Gus"})
    refused(session_post(guest_browser, f"/api/players/{ann.id}/follow"), 403, "no_account")
    refused(session_post(guest_browser, f"/api/players/{ann.id}/block"), 403, "no_account")
    refused(guest_browser.get("/api/my/following"), 403, "no_account")
    refused(guest_browser.get("/api/my/blocked"), 403, "no_account")
    browser = signed_in(ann)
    refused(session_post(browser, f"/api/players/{ann.id}/follow"), 400, "self_follow")
    refused(session_post(browser, f"/api/players/{ann.id}/block"), 400, "self_block")
    refused(session_post(browser, "/api/players/not-a-uuid/follow"), 404, "no_player")
    gus = player_create(name="Gus", now=timezone.now())
    refused(session_post(browser, f"/api/players/{gus.id}/follow"), 404, "no_player")  # a guest is not followed
    assert session_post(browser, f"/api/players/{gus.id}/block").json()["blocked"] is True  # but is blocked


def test_at_most_a_thousand_followed(monkeypatch):
    ann, bob, cy = account("ann"), account("bob"), account("cyd")
    monkeypatch.setattr(social, "MAX_FOLLOWING", 1)
    browser = signed_in(ann)
    assert session_post(browser, f"/api/players/{bob.id}/follow").status_code == 200
    refused(session_post(browser, f"/api/players/{cy.id}/follow"), 400, "too_many_follows")
    assert social.MAX_FOLLOWING == 1 and Follow.objects.filter(follower=ann).count() == 1


def test_a_block_ends_the_follows_and_refuses_follows_and_challenges_without_saying_more():
    ann, mal = account("ann"), account("mal")
    ann_browser, mal_browser = signed_in(ann), signed_in(mal)
    session_post(ann_browser, f"/api/players/{mal.id}/follow")
    session_post(mal_browser, f"/api/players/{ann.id}/follow")
    blocked = session_post(ann_browser, f"/api/players/{mal.id}/block")
    assert blocked.json() == {"following": False, "blocked": True, "followers": 0}
    assert not Follow.objects.exists()  # both ways
    assert [b["player"]["id"] for b in ann_browser.get("/api/my/blocked").json()] == [str(mal.id)]

    follow = session_post(mal_browser, f"/api/players/{ann.id}/follow")
    refused(follow, 403, "blocked")
    assert follow.json()["message"] == "This player does not accept follows from you."
    challenge = session_post(mal_browser, "/api/challenge/ann", {"turn_seconds": 30})
    refused(challenge, 403, "blocked")
    assert challenge.json()["message"] == "This player does not accept challenges from you."
    assert not Challenge.objects.exists()
    # The blocked one learns nothing from the player's page either.
    assert mal_browser.get(f"/api/players/{ann.id}/follow").json() == {"following": False, "blocked": False,
                                                                       "followers": 0}
    # The blocker may still challenge; lifting the block lets the other challenge again.
    assert delete(ann_browser, f"/api/players/{mal.id}/block").json()["blocked"] is False
    assert session_post(mal_browser, "/api/challenge/ann", {"turn_seconds": 30}).status_code == 201


def test_search_by_prefix_as_usernames_compare_with_bots_marked_and_found_unrated():
    account("Annie")
    account("anna")
    account("bob")
    robo, _ = bot("annbot")
    player_create(name="Ann the guest", now=timezone.now())  # guests are not found
    found = Client().get("/api/players", {"q": "\uff21\uff2e\uff2e"})  # ANN in fullwidth letters
    assert found.status_code == 200
    assert [(p["username"], p["bot"]) for p in found.json()] == [("anna", False), ("annbot", True),
                                                                  ("Annie", False)]
    assert found.json()[1]["id"] == str(robo.id)
    assert Client().get("/api/players", {"q": "zz"}).json() == []
    for bad in ({}, {"q": ""}, {"q": "   "}, {"q": "a" * 25}):
        refused(Client().get("/api/players", bad), 400, "bad_query")


def test_writes_are_limited_per_address_too(monkeypatch):
    monkeypatch.setattr(limits, "SOCIAL_WRITES_BY_ADDRESS", limits.Quota("social-writes-by-address", 3, 60))
    ann, bob, cyd = account("ann"), account("bob"), account("cyd")
    ann_browser, bob_browser = signed_in(ann), signed_in(bob)  # two accounts, one address
    for browser, other in ((ann_browser, cyd), (ann_browser, bob), (bob_browser, cyd)):
        assert session_post(browser, f"/api/players/{other.id}/follow").status_code == 200
    written = session_post(bob_browser, f"/api/players/{ann.id}/follow")
    refused(written, 429, "rate_limited")
    assert int(written["Retry-After"]) >= 1


def test_search_answers_at_most_ten():
    for i in range(12):
        account(f"player{i:02d}")
    assert [p["username"] for p in Client().get("/api/players", {"q": "play"}).json()] == [
        f"player{i:02d}" for i in range(10)]


def test_searches_and_writes_are_rate_limited_with_retry_after(monkeypatch):
    monkeypatch.setattr(limits, "SEARCHES", limits.Quota("player-searches-by-address", 2, 60))
    monkeypatch.setattr(limits, "SOCIAL_WRITES", limits.Quota("social-writes-by-player", 2, 60))
    for _ in range(2):
        assert Client().get("/api/players", {"q": "a"}).status_code == 200
    searched = Client().get("/api/players", {"q": "a"})
    refused(searched, 429, "rate_limited")
    assert int(searched["Retry-After"]) >= 1
    ann, bob = account("ann"), account("bob")
    browser = signed_in(ann)
    session_post(browser, f"/api/players/{bob.id}/follow")
    delete(browser, f"/api/players/{bob.id}/follow")
    written = session_post(browser, f"/api/players/{bob.id}/block")
    refused(written, 429, "rate_limited")
    assert int(written["Retry-After"]) >= 1
