"""The reader's language (players.language): the player's preference, else the language cookie, else
Accept-Language, else English; chosen alike for a page, an API call and a websocket, where every message
a socket handles is handled in it. The switcher in the footer sets it without changing the URL."""

from __future__ import annotations

import pytest
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.urls import path
from django.utils import timezone, translation

from config.websocket import SessionKeyMiddleware
from live.offload import offload
from lobby.realtime.socket import Consumer
from players.language import choose_language, language_of
from players.models import Preferences
from players.preferences import preferences_change
from tests.players.test_preferences import guest, patch
from tests.roomkit import make_player
from tests.socketkit import ORIGIN

COOKIE = settings.LANGUAGE_COOKIE_NAME


@pytest.mark.parametrize(("preference", "cookie", "accept", "chosen"), [
    (None, None, "", "en"),
    (None, None, "ja,en-US;q=0.9", "ja"),
    (None, None, "en-US,en;q=0.9,ja;q=0.8", "en"),
    (None, None, "pt-BR,de-AT;q=0.7,fr;q=0.5", "de"),  # the first the site has; a region counts as its language
    (None, None, "fr;q=0.2,es;q=0.9", "es"),  # by quality, not by order
    (None, None, "*", "en"),
    (None, None, "x" * 600, "en"),
    (None, "fr", "ja", "fr"),
    (None, "xx", "ja", "ja"),  # a cookie naming no language of the site is no choice
    ("de", "fr", "ja", "de"),
    ("zz", None, "es", "es"),
])
def test_the_preference_then_the_cookie_then_accept_language_then_english(preference, cookie, accept, chosen):
    assert choose_language(preference=preference, cookie=cookie, accept_language=accept) == chosen


@pytest.mark.django_db
def test_a_page_and_an_api_answer_are_in_the_language_chosen():
    client = Client()
    page = client.get("/ratings", HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9")
    assert '<html lang="de">' in page.content.decode()
    assert page["Content-Language"] == "de" and "Accept-Language" in page["Vary"]
    assert '<html lang="en">' in client.get("/ratings").content.decode()
    client.cookies[COOKIE] = "fr"
    assert client.get("/ratings", HTTP_ACCEPT_LANGUAGE="de")["Content-Language"] == "fr"
    assert client.get("/api/preferences", HTTP_ACCEPT_LANGUAGE="ja")["Content-Language"] == "fr"


@pytest.mark.django_db
def test_the_preference_beats_the_cookie_and_accept_language_and_is_validated():
    client = guest()
    client.cookies[COOKIE] = "fr"
    assert patch(client, {"language": "ja"}).json()["language"] == "ja"
    assert client.get("/ratings", HTTP_ACCEPT_LANGUAGE="de")["Content-Language"] == "ja"
    for bad in ("jp", "EN", "", 1, ["de"]):
        refused = patch(client, {"language": bad})
        assert (refused.status_code, refused.json()["code"]) == (400, "bad_request"), bad
    # In the player's language (Japanese, chosen above), naming the languages by their codes.
    assert patch(client, {"language": "xx"}).json()["message"] == "設定: language: en, ja, de, fr, es または null。"
    assert patch(client, {"language": None}).json()["language"] is None  # the browser's again
    assert Preferences.objects.get().values == {}
    assert client.get("/ratings", HTTP_ACCEPT_LANGUAGE="de")["Content-Language"] == "fr"


@pytest.mark.django_db
def test_the_switcher_sets_the_cookie_and_the_players_preference_and_returns_to_the_page():
    anonymous = Client()
    answer = anonymous.post("/language", {"language": "es", "next": "/players/abc?page=2"})
    assert (answer.status_code, answer["Location"]) == (302, "/players/abc?page=2")
    assert anonymous.cookies[COOKIE].value == "es"
    assert anonymous.get("/ratings")["Content-Language"] == "es"
    assert anonymous.post("/language", {"language": "de", "next": "https://evil.example/"})["Location"] == "/"

    client = guest()
    token = client.cookies["csrftoken"].value
    assert client.post("/language", {"language": "ja", "next": "/ratings"}).status_code == 403  # CSRF
    answer = client.post("/language", {"language": "ja", "next": "/ratings"}, HTTP_X_CSRFTOKEN=token)
    assert (answer.status_code, answer["Location"]) == (302, "/ratings")
    assert client.get("/api/preferences").json()["language"] == "ja"
    client.post("/language", {"language": "klingon", "next": "/"}, HTTP_X_CSRFTOKEN=token)  # ignored, as Django does
    assert client.get("/api/preferences").json()["language"] == "ja"
    assert client.get("/language").status_code == 405


@pytest.mark.django_db
def test_a_recipient_is_written_to_in_their_preference_else_english():
    player, _key = make_player()
    assert language_of(player) == language_of(None) == "en"
    preferences_change(player=player, changes={"language": "fr"}, now=timezone.now())
    assert language_of(player) == "fr"


class LanguageConsumer(Consumer):
    """A socket with the base's common path, answering each frame with the language it was handled in."""

    async def connect(self) -> None:
        await self.accept()
        before = translation.get_language()
        await offload(self.identify)()
        await self.send_frame({"type": "connected", "before": before, "after": translation.get_language()})

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send_frame({"type": "frame", "language": translation.get_language()})


application = SessionKeyMiddleware(URLRouter([path("ws/language/", LanguageConsumer.as_asgi())]))


async def languages_seen(headers: list[tuple[bytes, bytes]]) -> tuple[str, str, str]:
    communicator = WebsocketCommunicator(application, "/ws/language/", headers=[ORIGIN, *headers])
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    opened = await communicator.receive_json_from(timeout=5)
    await communicator.send_to(text_data="{}")
    frame = await communicator.receive_json_from(timeout=5)
    await communicator.disconnect()
    return opened["before"], opened["after"], frame["language"]


@pytest.mark.django_db(transaction=True)
async def test_every_message_of_a_socket_is_handled_in_its_language():
    player, key = await offload(make_player)("Ann")
    session = (b"cookie", f"sessionid={key}; {COOKIE}=fr".encode())
    assert await languages_seen([(b"accept-language", b"ja")]) == ("ja", "ja", "ja")
    assert await languages_seen([(b"accept-language", b"ja"), session]) == ("fr", "fr", "fr")
    await offload(preferences_change)(player=player, changes={"language": "de"}, now=timezone.now())
    # Until the player is known, the handshake's headers; from then on the player's preference.
    assert await languages_seen([(b"accept-language", b"ja"), session]) == ("fr", "de", "de")
    assert await languages_seen([]) == ("en", "en", "en")
