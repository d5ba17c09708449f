"""A refusal's ``message`` over REST is in the reader's language (Accept-Language here; players.language
chooses), its ``code`` and status the same in every language; English without a choice."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.utils import translation

from common.errors import RateLimited
from config.inputs import FORM

pytestmark = pytest.mark.django_db

NO_ROOM = {
    "en": "There is no open room ZZZZZZ.",
    "ja": "開いているルーム ZZZZZZ はありません。",
    "de": "Es gibt keinen offenen Raum ZZZZZZ.",
    "fr": "Il n\u2019y a pas de salle ouverte ZZZZZZ.",
    "es": "No hay ninguna sala abierta ZZZZZZ.",
}


@pytest.mark.parametrize("language", sorted(NO_ROOM))
def test_a_refusal_is_in_the_readers_language_with_the_same_code(language):
    answer = Client().get("/api/rooms/ZZZZZZ", HTTP_ACCEPT_LANGUAGE="" if language == "en" else language)
    assert answer.status_code == 404
    assert answer.json() == {"code": "no_room", "message": NO_ROOM[language]}


def test_common_refusals_are_translated_too():
    # common knows no Django: Django's translation is handed to it at start-up (common.apps).
    answer = Client().get("/api/notifications?page=x", HTTP_ACCEPT_LANGUAGE="ja")
    assert answer.json() == {"code": "bad_request", "message": "page: 1から50までの整数を指定してください。"}
    with translation.override("ja"):
        assert RateLimited(1).message == "リクエストが多すぎます。1秒後にもう一度お試しください。"
    with translation.override("fr"):
        assert RateLimited(1).message == "Trop de requêtes. Réessayez dans 1 seconde."
        assert RateLimited(2).message == "Trop de requêtes. Réessayez dans 2 secondes."
    assert RateLimited(1).message == "Too many requests. Try again in 1 second."


def test_the_engines_and_the_record_files_refusals_are_translated_where_they_are_sent():
    # The engine and the record file know no Django: an English template and its params, rendered here.
    answer = Client().post("/api/records/parse", {"text": "a1 a1 a1 a1 a1"}, content_type="application/json",
                           HTTP_ACCEPT_LANGUAGE="de")
    assert answer.json() == {"code": "bad_record",
                             "message": "Zug 3 (Rot a1): Stab a1 ist voll: Er trägt schon 4 Kugeln."}


# --- config's own refusals (config/locale) -------------------------------------------------------------
def test_the_address_check_before_the_session_answers_in_the_cookies_or_the_browsers_language(settings):
    # config.inputs runs before the session (and the player's preference): the cookie, else Accept-Language.
    answer = Client().get("/api/rooms/%00", HTTP_ACCEPT_LANGUAGE="ja")
    assert answer.status_code == 400
    assert answer.json() == {"code": "bad_text", "message": "アドレス: テキストにNUL文字を含めることはできません。"}
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    answer = client.get("/api/rooms/%00", HTTP_ACCEPT_LANGUAGE="ja")
    assert answer.json()["message"] == "die Adresse: Text darf kein NUL-Zeichen enthalten."


def test_a_form_refused_before_the_session_says_why_in_the_readers_language():
    utf16 = "username=a&password=b".encode("utf-16")
    answer = Client().generic("POST", "/api/accounts/login", utf16,
                              content_type=f"{FORM}; charset=utf-16", HTTP_ACCEPT_LANGUAGE="fr")
    assert answer.status_code == 400
    assert answer.json() == {"code": "bad_request",
                             "message": "Le corps d\u2019un formulaire doit être encodé en UTF-8."}
    many = "&".join(f"f{n}=1" for n in range(1001))
    answer = Client().post("/api/accounts/login", many, content_type=FORM, HTTP_ACCEPT_LANGUAGE="es")
    assert answer.json() == {"code": "bad_request", "message": "El formulario tiene más de 1000 campos."}
    assert Client().post("/api/accounts/login", many, content_type=FORM).json() == {
        "code": "bad_request", "message": "The form has more than 1000 fields."}


def test_a_json_body_refused_by_the_parser_is_in_the_readers_language(settings):
    client = Client()
    too_big = "[" + "1," * settings.API_MAX_BODY_BYTES + "1]"
    answer = client.post("/api/session", too_big, content_type="application/json", HTTP_ACCEPT_LANGUAGE="de")
    assert answer.json() == {"code": "bad_request",
                             "message": f"Der Inhalt der Anfrage ist größer als {settings.API_MAX_BODY_BYTES} Bytes."}
    deep = "[" * (settings.API_MAX_JSON_DEPTH + 1) + "]" * (settings.API_MAX_JSON_DEPTH + 1)
    answer = client.post("/api/session", deep, content_type="application/json", HTTP_ACCEPT_LANGUAGE="ja")
    assert answer.json()["message"] == f"{settings.API_MAX_JSON_DEPTH}階層を超えて入れ子になったJSONは受け付けません。"


def test_an_outage_outside_the_language_middleware_is_told_in_the_cookies_or_the_browsers_language(rf):
    from django.db import OperationalError

    from config.errors import server_error

    for request, expected in ((rf.get("/", HTTP_ACCEPT_LANGUAGE="es"), "El servidor no puede acceder a su base"),
                              (rf.get("/"), "The server cannot reach its database")):
        try:
            raise OperationalError("down")
        except OperationalError:
            response = server_error(request)
        assert response.status_code == 503
        assert json.loads(response.content)["message"].startswith(expected)
