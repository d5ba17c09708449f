"""The site in each of its languages, in Chromium (issue 35; docs/translating.md): a browser sending
Accept-Language gets the home page and a room with the right ``<html lang>``, the texts its pages'
JavaScript writes in that language (from the catalog script, frontend/jscatalog.py) and the templates' in
it too.

One server and one browser for the module; each language is a context of its own (its own cookies).
"""

from __future__ import annotations

import re

import pytest
from django.utils import translation
from playwright.sync_api import Page, expect

from tests.e2e.playkit import POST

pytestmark = pytest.mark.browser

# Texts the pages' JavaScript writes, as each catalog (frontend/locale/<lang>/LC_MESSAGES/djangojs.po) has them.
CONNECTED = {"en": "Connected", "ja": "接続済み", "de": "Verbunden", "fr": "Connecté", "es": "Conectado"}
HOST_NOTE = {
    "en": "You are the host: changes apply to the next game.",
    "ja": "あなたがホストです。変更は次の対局から適用されます。",
    "de": "Du bist Gastgeber: Änderungen gelten ab der nächsten Partie.",
    "fr": "Vous êtes l\u2019hôte\u00a0: les modifications s\u2019appliquent à la prochaine partie.",
    "es": "Eres el anfitrión: los cambios se aplican a la próxima partida.",
}
ROOM_TITLE = {
    "en": "Room {} · 3D Four in a Row",
    "ja": "ルーム{} · 立体四目並べ",
    "de": "Raum {} · Vier in einer Reihe 3D",
    "fr": "Salon {} · Quatre en ligne 3D",
    "es": "Sala {} · Cuatro en raya 3D",
}
DAILY_TASK = {
    "en": r"^(Red|Yellow) to play and win in \d+$",
    "ja": r"^(赤|黄)の手番、\d+手で勝ち$",
    "de": r"^(Rot|Gelb) zieht und gewinnt in \d+$",
    "fr": r"^(Rouge|Jaune) joue et gagne en \d+$",
    "es": r"^Juega (Rojo|Amarillo) y gana en \d+$",
}


def template_text(language: str, text: str) -> str:
    """A template's text as the site's catalogs say it in ``language``."""
    with translation.override(language):
        return translation.gettext(text)


def post(page: Page, url: str, body: dict) -> dict:
    answer = page.evaluate(POST, [url, body])
    assert answer["status"] in {200, 201}, answer
    return answer["body"]


def open_room(page: Page, name: str) -> str:
    """Makes the page's device a player and opens a party room of its own; returns the room's code."""
    post(page, "/api/session", {"name": name})
    code = post(page, "/api/rooms", {})["code"]
    page.goto(f"/r/{code}")
    page.wait_for_function("() => window.__room && window.__room.state")
    return code


def test_each_language_has_its_home_page_and_room(new_page) -> None:  # type: ignore[no-untyped-def]
    for language in ("en", "de", "fr", "es", "ja"):
        page = new_page(extra_http_headers={"Accept-Language": f"{language},en;q=0.5"})
        page.goto("/")
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator("#daily-task")).to_have_text(re.compile(DAILY_TASK[language]))
        expect(page.locator("label[for=language-switch]")).to_have_text(template_text(language, "Language"))
        expect(page.locator("#language-switch option:checked")).to_have_attribute("value", language)

        code = open_room(page, "花子" if language == "ja" else "Ann")
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator("#conn")).to_have_text(CONNECTED[language])
        expect(page.locator("#rules-note")).to_have_text(HOST_NOTE[language])
        expect(page).to_have_title(ROOM_TITLE[language].format(code))
        assert page.js_errors == [], (language, page.js_errors)
        page.context.close()

