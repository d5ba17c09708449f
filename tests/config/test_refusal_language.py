"""A refusal's ``message`` over REST is in the reader's language (Accept-Language here; players.language
chooses), its ``code`` and status the same in every language; English without a choice."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from common.errors import RateLimited

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
