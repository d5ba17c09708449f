"""What the account page (/account) asks of the API beside the address and the reset: removing the address,
changing the password (the current one confirms it; the other devices are signed out, this one stays), and
the page itself, which a guest sees asking to sign in."""

from __future__ import annotations

import pytest

from mail.models import OutboundEmail
from tests.accounts.accountkit import PASSWORD, account, confirmed_account, device, post

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "another-3d-password?"


def me(client) -> dict:
    return client.get("/api/accounts/me").json()


def test_the_address_is_removed_and_no_reset_link_goes_to_it_any_more():
    ann = confirmed_account("Ann", "ann@example.com")
    answer = post(ann, "/api/accounts/email", method="delete")
    assert answer.status_code == 200 and answer.json() == {"email": None, "email_confirmed": False}
    assert me(ann)["email"] is None
    before = OutboundEmail.objects.filter(kind="reset").count()
    assert post(device(), "/api/accounts/password/reset", {"email": "ann@example.com"}).status_code == 202
    assert OutboundEmail.objects.filter(kind="reset").count() == before
    assert post(device(), "/api/accounts/email", method="delete").json()["code"] == "no_account"


def test_the_password_is_changed_with_the_current_one_and_other_devices_are_signed_out():
    ann = account("Ann")
    other = device()
    assert post(other, "/api/accounts/login", {"username": "Ann", "password": PASSWORD}).status_code == 200
    wrong = post(ann, "/api/accounts/password", {"current": "not it at all", "password": NEW_PASSWORD})
    assert wrong.status_code == 401 and wrong.json()["code"] == "bad_credentials"
    weak = post(ann, "/api/accounts/password", {"current": PASSWORD, "password": "abc"})
    assert weak.status_code == 400 and weak.json()["code"] == "weak_password"
    assert post(ann, "/api/accounts/password", {"current": PASSWORD, "password": NEW_PASSWORD}).status_code == 204
    assert me(ann)["username"] == "Ann"  # this device stays signed in
    assert me(other)["username"] is None  # the other is signed out
    assert post(device(), "/api/accounts/login", {"username": "Ann", "password": NEW_PASSWORD}).status_code == 200


def test_the_account_page_is_served_and_asks_a_guest_to_sign_in():
    page = device().get("/account")
    assert page.status_code == 200 and b'id="account-page"' in page.content
    assert b'href="/account"' in account("Ann").get("/").content  # the header links it


def test_a_password_change_closes_every_open_socket_of_the_account(django_capture_on_commit_callbacks):
    from lobby.events import player_group
    from players.models import Player
    from tests.layerkit import GroupListener

    ann = account("Ann")
    listener = GroupListener(player_group(Player.objects.get(name="Ann").pk))  # every socket of Ann's pages
    try:
        with django_capture_on_commit_callbacks(execute=True):
            changed = post(ann, "/api/accounts/password", {"current": PASSWORD, "password": NEW_PASSWORD})
        assert changed.status_code == 204
        ended = listener.receive()
    finally:
        listener.close()
    assert ended["type"] == "player.end" and ended["close"] == 4409 and ended["error"]["code"] == "player_changed"
