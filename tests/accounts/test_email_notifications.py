"""Notifications by email: the kinds chosen in the preferences (all off at first), to the confirmed address,
at most one your_turn email per game in 12 hours, each with a one-click unsubscribe (RFC 8058)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone, translation

from accounts.notices import EMAIL_KINDS
from bots.challenges import challenge_create
from mail.models import OutboundEmail
from notifications.kinds import KINDS
from notifications.services import notify
from players.models import Player
from tests.accounts.accountkit import account, confirmed_account, device, last_email, post
from tests.bots.botkit import account as account_player

pytestmark = pytest.mark.django_db

ALL_OFF = {"challenge": False, "your_turn": False, "time_running_out": False, "game_over": False}


def choose(client: Client, **kinds: bool):
    return post(client, "/api/accounts/me", {"email_notifications": kinds}, method="patch")


@pytest.fixture
def ann(django_capture_on_commit_callbacks):
    client = confirmed_account("Ann", "ann@example.com")
    return client, Player.objects.get(user__username="Ann")


def tell(player: Player, kind: str, *, game: str = "g1", at=None, capture) -> None:
    with capture(execute=True):
        notify(player_id=player.pk, kind=kind, text=f"{kind} happened", url="/r/K7QZ2M", data={"game": game},
               now=at or timezone.now())


def emails(kind: str) -> list[OutboundEmail]:
    return list(OutboundEmail.objects.filter(kind=kind).order_by("id"))


def test_preferences_start_off_and_are_chosen_per_kind(ann):
    client, _ = ann
    assert client.get("/api/accounts/me").json()["email_notifications"] == ALL_OFF
    answer = choose(client, challenge=True, game_over=True)
    assert answer.status_code == 200
    assert answer.json()["email_notifications"] == {**ALL_OFF, "challenge": True, "game_over": True}
    assert choose(client, game_over=False).json()["email_notifications"] == {**ALL_OFF, "challenge": True}
    assert choose(client, followed=True).json()["code"] == "bad_request"
    assert choose(client, challenge="yes").status_code == 400
    guest = device()
    post(guest, "/api/session", {"name": "Guest"})
    assert choose(guest, challenge=True).json()["code"] == "no_account"


def test_a_chosen_kind_is_emailed_with_a_one_click_unsubscribe(ann, django_capture_on_commit_callbacks):
    client, player = ann
    tell(player, "challenge", capture=django_capture_on_commit_callbacks)
    assert emails("challenge") == []  # not chosen
    choose(client, challenge=True)
    tell(player, "challenge", capture=django_capture_on_commit_callbacks)
    tell(player, "game_over", capture=django_capture_on_commit_callbacks)  # not chosen
    [email] = emails("challenge")
    assert email.to == "ann@example.com" and email.subject == "3D Four in a Row: challenge happened"
    assert "http://testserver/r/K7QZ2M" in email.body and emails("game_over") == []
    link = email.headers["List-Unsubscribe"].strip("<>")
    assert email.headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click" and link in email.body
    path = link.removeprefix("http://testserver")
    mail_client = Client(enforce_csrf_checks=True)  # a mail client: no cookie, no CSRF token
    assert mail_client.get(path).status_code == 200  # a link checker's GET changes nothing
    assert client.get("/api/accounts/me").json()["email_notifications"]["challenge"] is True
    done = mail_client.post(path, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded")
    assert done.status_code == 200 and b"Unsubscribed" in done.content
    assert client.get("/api/accounts/me").json()["email_notifications"]["challenge"] is False
    tell(player, "challenge", capture=django_capture_on_commit_callbacks)
    assert len(emails("challenge")) == 1
    assert mail_client.post(re.sub(r".$", "x", path)).status_code == 400


def test_at_most_one_your_turn_email_per_game_in_twelve_hours(ann, django_capture_on_commit_callbacks):
    client, player = ann
    choose(client, your_turn=True)
    t0 = timezone.now().replace(microsecond=0)  # a notification's time has whole milliseconds
    for at, game in ((t0, "g1"), (t0 + timedelta(hours=11), "g1"), (t0 + timedelta(hours=1), "g2"),
                     (t0 + timedelta(hours=12, seconds=1), "g1")):
        tell(player, "your_turn", game=game, at=at, capture=django_capture_on_commit_callbacks)
    assert [(e.ref, e.created_at - t0) for e in emails("your_turn")] == [
        ("game:g1", timedelta(0)), ("game:g2", timedelta(hours=1)), ("game:g1", timedelta(hours=12, seconds=1))]


def test_no_email_without_a_confirmed_address(django_capture_on_commit_callbacks):
    client = account("Bob")
    choose(client, challenge=True)
    post(client, "/api/accounts/email", {"email": "bob@example.com"})  # not confirmed
    tell(Player.objects.get(user__username="Bob"), "challenge", capture=django_capture_on_commit_callbacks)
    assert emails("challenge") == []


def test_an_email_is_in_its_recipients_language(django_capture_on_commit_callbacks):
    bob = confirmed_account("Bob", "bob@example.com")  # the challenged, who reads Spanish
    assert choose(bob, challenge=True).status_code == 200
    assert post(bob, "/api/preferences", {"language": "es"}, method="patch").status_code == 200
    ann = account_player("Ann")
    with django_capture_on_commit_callbacks(execute=True), translation.override("de"):  # Ann's request
        challenge_create(challenger=ann, username="Bob", turn_seconds=60, now=timezone.now())
    email = last_email("challenge")
    assert email.subject == "Cuatro en raya 3D: Ann (1500?) te desafía: 60 s por jugada, amistosa."
    assert email.body.startswith("Ann (1500?) te desafía: 60 s por jugada, amistosa.\n")
    assert "Recibes este correo porque elegiste los correos de «desafío»." in email.body


def test_every_emailed_kind_is_a_registered_kind_so_its_email_has_its_text():
    assert [kind for kind in EMAIL_KINDS if kind not in KINDS] == []
