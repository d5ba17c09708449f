"""An account's email address and password reset, over HTTP: the confirmation link, one account per
confirmed address, a reset link used once and within its day, every session ended, no enumeration."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.address import email_confirm
from accounts.reset import reset_confirm
from common.errors import Refused
from lobby.events import player_group
from mail.models import OutboundEmail
from tests.accounts.accountkit import PASSWORD, account, confirmed_account, device, last_email, link_in, post

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "another-3d-password?"


def me(client) -> dict:
    return client.get("/api/accounts/me").json()


def test_an_address_is_confirmed_by_its_link_and_shown_in_me():
    ann = account("Ann")
    assert me(ann)["email"] is None and me(ann)["email_confirmed"] is False
    answer = post(ann, "/api/accounts/email", {"email": "Ann@Example.com"})
    assert answer.status_code == 202 and answer.json() == {"email": "Ann@Example.com", "email_confirmed": False}
    email = last_email("confirm")
    assert email.to == "Ann@Example.com" and email.sent_at is None  # the outbox sends it, not the request
    page = ann.get(link_in(email))
    assert page.status_code == 200 and b"Address confirmed" in page.content
    assert me(ann)["email"] == "Ann@Example.com" and me(ann)["email_confirmed"] is True
    assert ann.get(link_in(email)).status_code == 400  # used: the address is no longer pending


def test_a_confirmation_link_expires_after_three_days_and_a_forged_one_is_refused():
    ann = account("Ann")
    post(ann, "/api/accounts/email", {"email": "ann@example.com"})
    token = link_in(last_email("confirm")).rsplit("/", 1)[1]
    with pytest.raises(Refused, match="expired") as refused:
        email_confirm(token=token, now=timezone.now() + timedelta(days=3, minutes=1))
    assert refused.value.code == "bad_link"
    assert ann.get(f"/accounts/confirm/{token[:-2]}xx").status_code == 400
    assert post(ann, "/api/accounts/email", {"email": "not an address"}).json()["code"] == "bad_email"
    assert post(device(), "/api/accounts/email", {"email": "a@example.com"}).json()["code"] == "no_account"


def test_one_account_per_confirmed_address_casefolded():
    confirmed_account("Ann", "ann@example.com")
    bob = account("Bob")
    assert post(bob, "/api/accounts/email", {"email": "ANN@example.com"}).status_code == 202  # tells nothing
    assert last_email("email_taken").to == "ANN@example.com"  # the owner of the address hears of it
    assert not OutboundEmail.objects.filter(kind="confirm", to="ANN@example.com").exists()


def reset_token() -> str:
    return link_in(last_email("reset")).rsplit("/", 1)[1]


def test_a_reset_link_sets_the_password_once_and_ends_every_session():
    ann = confirmed_account("Ann", "ann@example.com")
    other = device()
    post(other, "/api/accounts/login", {"username": "ann", "password": PASSWORD})
    assert me(other)["username"] == "Ann"
    asking = device()
    assert post(asking, "/api/accounts/password/reset", {"email": "ANN@example.com"}).status_code == 202
    token = reset_token()
    assert last_email("reset").to == "ann@example.com"
    answer = post(asking, "/api/accounts/password/reset/confirm", {"token": token, "password": NEW_PASSWORD})
    assert answer.status_code == 200 and answer.json() == {"username": "Ann"}
    # Every session of the account ended: its devices have no player until they log in again.
    assert me(ann)["player"] is None and me(other)["player"] is None
    again = post(asking, "/api/accounts/password/reset/confirm", {"token": token, "password": "yet-another-pw-3d"})
    assert again.status_code == 400 and again.json()["code"] == "bad_link"
    assert post(asking, "/api/accounts/login", {"username": "Ann", "password": NEW_PASSWORD}).status_code == 200
    assert post(device(), "/api/accounts/login", {"username": "Ann", "password": PASSWORD}).status_code == 401


def test_a_reset_link_expires_after_a_day():
    confirmed_account("Ann", "ann@example.com")
    post(device(), "/api/accounts/password/reset", {"username": "ANN"})
    with pytest.raises(Refused) as refused:
        reset_confirm(token=reset_token(), password=NEW_PASSWORD, now=timezone.now() + timedelta(days=1, minutes=1))
    assert refused.value.code == "bad_link"
    player = reset_confirm(token=reset_token(), password=NEW_PASSWORD, now=timezone.now() + timedelta(hours=23))
    assert player.name == "Ann"
    for forged in ("", "nonsense", "MQ.abc-def", reset_token()[:-1]):
        answer = post(device(), "/api/accounts/password/reset/confirm", {"token": forged, "password": NEW_PASSWORD})
        assert answer.status_code == 400 and answer.json()["code"] == "bad_link"


def test_a_reset_request_tells_nothing_about_the_account(settings):
    settings.PASSWORD_RESETS_PER_HOUR_PER_ACCOUNT = 2
    confirmed_account("Ann", "ann@example.com")
    account("Bob")  # no address: no email, the same answer
    answers = {}
    for body in ({"username": "Ann"}, {"username": "Bob"}, {"username": "nobody"}, {"email": "no@example.com"}):
        response = post(device(), "/api/accounts/password/reset", body)
        answers[str(body)] = (response.status_code, response.json())
    assert len(set(map(str, answers.values()))) == 1 and next(iter(answers.values()))[0] == 202
    assert OutboundEmail.objects.filter(kind="reset").count() == 1
    # The limit per name counts names that exist and names that do not alike.
    for name in ("Ann", "nobody"):
        post(device(), "/api/accounts/password/reset", {"username": name})
        refused = post(device(), "/api/accounts/password/reset", {"username": name})
        assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"


def test_reset_requests_are_limited_per_address(settings):
    settings.PASSWORD_RESETS_PER_HOUR_PER_ADDRESS = 3
    client = device()
    codes = [post(client, "/api/accounts/password/reset", {"username": f"name{i}"}).status_code for i in range(4)]
    assert codes == [202, 202, 202, 429]


def test_an_address_over_254_characters_is_bad_before_any_confirmation_is_counted(settings):
    settings.EMAIL_CONFIRMATIONS_PER_DAY_PER_ACCOUNT = 1
    ann = account("Ann")
    for length in (255, 300, 320):  # Django's validator takes them; the column and SMTP do not
        domain = "example.com"
        while len(domain) < length - 65:  # labels of at most 63 characters before it
            domain = "b" * min(63, length - 65 - len(domain) - 1) + "." + domain
        long = "a" * 64 + "@" + domain
        assert len(long) == length
        refused = post(ann, "/api/accounts/email", {"email": long})
        assert refused.status_code == 400 and refused.json()["code"] == "bad_email"
    assert post(ann, "/api/accounts/email", {"email": "ann@example.com"}).status_code == 202  # none was counted


def test_a_reset_closes_every_open_socket_of_the_account(django_capture_on_commit_callbacks):
    from players.models import Player
    from tests.layerkit import GroupListener

    confirmed_account("Ann", "ann@example.com")
    asking = device()
    post(asking, "/api/accounts/password/reset", {"email": "ann@example.com"})
    listener = GroupListener(player_group(Player.objects.get(name="Ann").pk))  # every socket of Ann's pages
    try:
        with django_capture_on_commit_callbacks(execute=True):
            answer = post(asking, "/api/accounts/password/reset/confirm", {"token": reset_token(),
                                                                          "password": NEW_PASSWORD})
        assert answer.status_code == 200
        ended = listener.receive()
    finally:
        listener.close()
    assert ended["type"] == "player.end" and ended["close"] == 4409 and ended["error"]["code"] == "player_changed"
