"""Usernames are one name in every spelling (NFKC, then casefolded), at registration and at login."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from common.errors import Refused
from players.accounts import (
    LOGIN_FAILURES_PER_ADDRESS,
    LOGIN_FAILURES_PER_NAME,
    RateLimited,
    account_login,
    account_register,
    username_key,
)
from players.models import Player
from players.services import player_create
from tests.ratings.ratingkit import at

pytestmark = pytest.mark.django_db

PASSWORD = "four-in-a-row-3d!"
OTHER_PASSWORD = "another-pass-phrase-7"
FULLWIDTH = "\uff23\uff41\uff53\uff45\uff56\uff49\uff43\uff54\uff49\uff4d"  # "Casevictim" in fullwidth letters


def device() -> Client:
    client = Client(enforce_csrf_checks=True)
    client.get("/api/session")
    return client


def post(client, url, data):
    return client.post(url, data, content_type="application/json", HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)


def register(name: str, password: str = PASSWORD) -> Player:
    return account_register(player=None, username=name, password=password, now=at())


# --- over HTTP -----------------------------------------------------------------------------------
def test_a_fullwidth_spelling_cannot_register_beside_the_name():
    assert post(device(), "/api/accounts/register", {"username": "casevictim", "password": PASSWORD}).status_code == 201
    taken = post(device(), "/api/accounts/register", {"username": FULLWIDTH, "password": OTHER_PASSWORD})
    assert taken.status_code == 409 and taken.json()["code"] == "name_taken"
    assert User.objects.count() == 1


def test_a_fullwidth_registration_logs_in_with_any_spelling():
    registered = post(device(), "/api/accounts/register", {"username": FULLWIDTH, "password": PASSWORD})
    assert registered.status_code == 201
    assert registered.json()["username"] == "Casevictim"  # stored and shown as Django normalises: NFKC
    player_id = registered.json()["player"]["id"]
    for spelling in (FULLWIDTH, "casevictim", "CASEVICTIM", " Casevictim "):
        logged_in = post(device(), "/api/accounts/login", {"username": spelling, "password": PASSWORD})
        assert logged_in.status_code == 200, spelling
        assert logged_in.json()["player"]["id"] == player_id


# --- the services --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("first", "second"),
    [("ann", "ANN"), ("Straße", "STRASSE"), ("ǅemal", "ǆemal"), ("ΣΊΣΥΦΟΣ", "σίσυφος"), ("ﬁne", "FINE")],
)
def test_spellings_of_one_name_are_one_account(first, second):
    player = register(first)
    assert username_key(first) == username_key(second)
    with pytest.raises(Refused) as taken:
        register(second, OTHER_PASSWORD)
    assert taken.value.code == "name_taken"
    assert account_login(username=second, password=PASSWORD, address="10.0.0.1", now=at()) == player


def test_different_names_stay_different():
    ann, anna = register("ann"), register("anna")
    assert account_login(username="ANNA", password=PASSWORD, address="10.0.0.1", now=at()) == anna
    assert account_login(username="Ann", password=PASSWORD, address="10.0.0.1", now=at()) == ann


def test_the_key_is_stored_unique_with_the_account():
    player = register(FULLWIDTH)
    player.refresh_from_db()
    assert player.username_key == "casevictim" and player.user.username == "Casevictim"
    guest = player_create(name="Guest", now=at())
    assert guest.username_key is None


@pytest.mark.parametrize("username", ["", "  ", None, 7, ["ann"]])
def test_a_failed_login_without_a_usable_username_counts_once_against_the_address(username):
    account = register("ann")
    nameless = LOGIN_FAILURES_PER_NAME - 1  # below the per-name limit (which a missing name has too)
    others = [f"user{i}" for i in range(LOGIN_FAILURES_PER_ADDRESS - 1 - nameless)]
    for i, attempt in enumerate([username] * nameless + others):
        with pytest.raises(Refused) as failed:
            account_login(username=attempt, password="wrong", address="10.0.0.7", now=at(i))
        assert failed.value.code == "bad_credentials", f"attempt {i + 1} was refused as {failed.value.code}"
    # One failure short of the address's limit: the right password still gets in.
    assert account_login(username="ann", password=PASSWORD, address="10.0.0.7", now=at(60)) == account
    with pytest.raises(Refused) as last:
        account_login(username=username, password="wrong", address="10.0.0.7", now=at(61))
    assert last.value.code == "bad_credentials"
    with pytest.raises(RateLimited):  # that was the address's last failure allowed within the window
        account_login(username="ann", password=PASSWORD, address="10.0.0.7", now=at(62))


def test_failures_under_every_spelling_count_against_one_name():
    register("ann")
    spellings = ["ann", "ANN", "\uff21\uff4e\uff4e", " Ann", "aNn"]
    assert len(spellings) == LOGIN_FAILURES_PER_NAME
    for i, spelling in enumerate(spellings):
        with pytest.raises(Refused):
            account_login(username=spelling, password="wrong", address="10.0.0.1", now=at(i))
    with pytest.raises(RateLimited):
        account_login(username="ann", password=PASSWORD, address="10.0.0.1", now=at(10))
