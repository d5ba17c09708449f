"""A notification is written in its recipient's language, not in the language of whoever caused it: when
it is listed (the reader's) and delivered live (the recipient's choice; a socket reading another writes it
again; emailed: tests/accounts/test_email_notifications.py). The row keeps the English, and the text
follows a change of language."""

from __future__ import annotations

import json

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone, translation

from bots.challenges import challenge_create
from config.asgi import application
from live.offload import offload
from notifications.models import Notification
from players.models import Player
from players.preferences import preferences_change
from players.social import follow_add
from tests.bots.botkit import account, signed_in


@pytest.fixture(autouse=True)
def _quick_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def with_session(name: str, language: str | None = None) -> tuple[Player, str]:
    """An account, its language preference, and the key of a session signed into it."""
    player = account(name)
    if language is not None:
        preferences_change(player=player, changes={"language": language}, now=timezone.now())
    return player, signed_in(player).cookies["sessionid"].value


def listed(key: str, **headers: str) -> list[str]:
    client = Client()
    client.cookies["sessionid"] = key
    return [n["text"] for n in client.get("/api/notifications", **headers).json()["results"]]


@pytest.mark.django_db
def test_a_notification_reads_in_its_readers_language_not_the_senders():
    ann, _ = with_session("Ann")
    bob, bob_key = with_session("Bob", "ja")
    with translation.override("de"):  # Ann's request, in German
        follow_add(follower=ann, followed_id=str(bob.pk), now=timezone.now())
    assert Notification.objects.get(player=bob).text == "Ann follows you."  # stored in English
    assert listed(bob_key, HTTP_ACCEPT_LANGUAGE="de") == ["Annさんがあなたをフォローしました。"]  # his choice
    preferences_change(player=bob, changes={"language": None}, now=timezone.now())
    assert listed(bob_key, HTTP_ACCEPT_LANGUAGE="es") == ["Ann te sigue."]  # written when read
    assert listed(bob_key) == ["Ann follows you."]


async def player_socket(key: str, language: bytes) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(application, "/ws/player/", headers=[
        (b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", f"sessionid={key}".encode()),
        (b"accept-language", language)])
    connected, _ = await socket.connect(timeout=5)
    assert connected
    return socket


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("runtime_cleanup")
async def test_live_it_is_in_the_recipients_choice_else_in_each_sockets_language():
    (ann, _), (bob, bob_key), (cy, cy_key) = [await offload(with_session)(*who)
                                              for who in (("Ann",), ("Bob", "ja"), ("Cyd",))]
    chosen = await player_socket(bob_key, b"de")  # Bob chose Japanese: it beats his browser's German
    browser = await player_socket(cy_key, b"fr")  # Cyd chose none: his browser's French

    @offload
    def challenges() -> None:
        with translation.override("es"):  # Ann's request
            for dest in ("Bob", "Cyd"):
                challenge_create(challenger=ann, username=dest, turn_seconds=30, now=timezone.now())

    await challenges()
    heard = [json.loads(await socket.receive_from(timeout=5))["notification"]["text"] for socket in (chosen, browser)]
    assert heard == ["Annさん（1500?）から挑戦状が届きました: 1手30秒、非レート戦。",  # noqa: RUF001
                     "Ann (1500?) vous défie\u00a0: 30 s par coup, amicale."]
    for socket in (chosen, browser):
        await socket.disconnect()
