"""The site in each of its languages, in Chromium (issue 35; docs/translating.md): a browser sending
Accept-Language gets the home page and a room with the right ``<html lang>``, the texts its pages'
JavaScript writes in that language (from the catalog script, frontend/jscatalog.py) and the templates' in
it too; a refusal the room socket sends reaches a Japanese page in Japanese; and the Japanese pages, read
as a person reads them (their text, labels, titles and placeholders), hold no English word but names, ids
and the game's own terms.

One server and one browser for the module; each language is a context of its own (its own cookies).
"""

from __future__ import annotations

import re

import pytest
from django.utils import translation
from playwright.sync_api import Page, expect

from harness.site_pages import POST
from tests.e2e.playkit import settle, watch_fetches

pytestmark = pytest.mark.browser

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
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
    "de": "Raum {} · 3D-Vier-gewinnt",
    "fr": "Salle {} · Quatre en ligne 3D",
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


def refused_in_japanese(page: Page) -> None:
    """A drop before the room's first game: the room socket's refusal (an error frame) says why in Japanese."""
    page.evaluate("() => window.__room.socket.send({type: 'drop', peg: 'a1', ply: 0})")
    message = page.locator("#board-msg")
    expect(message).to_be_visible()
    said = message.inner_text()
    assert JAPANESE.search(said) and not re.search(r"[A-Za-z]{2,}", said), said


def blind_mode_in_japanese(page: Page, code: str) -> None:
    """Blind mode's commands in Japanese words and in English letters, a peg typed in full-width letters,
    each answered in Japanese."""
    page.goto(f"/r/{code}?blind=1")
    expect(page.locator("#blind-help")).to_contain_text("盤 で盤面を棒ごとに")
    # The room's first frame is in (its seats drawn): a move typed before it has no room to go to.
    expect(page.locator("#seats li[data-seat]").first).to_be_attached()
    box = page.locator("#blind-input")
    full_width_c3 = "\uff43\uff13"  # what a Japanese input method types for c3
    said = (("盤", "盤は空です。"), ("b c3", "c3\uff1a空。"), (full_width_c3, "対局はまだ始まっていません。"))
    for line, heard in said:
        box.fill(line)
        box.press("Enter")
        expect(page.get_by_role("log")).to_contain_text(heard)


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
        if language == "ja":
            refused_in_japanese(page)
            blind_mode_in_japanese(page, code)
        assert page.js_errors == [], (language, page.js_errors)
        page.context.close()


# ---- no English left on the Japanese pages -----------------------------------------------------------

# What a person reads on the page: its text as rendered, and the labels, titles and placeholders of the
# elements shown (an SVG's <title> is a tooltip).
READ = """() => {
  const texts = [document.title, document.body.innerText];
  for (const el of document.querySelectorAll("[aria-label], [title], [placeholder], [alt]")) {
    if (!el.checkVisibility()) continue;
    for (const name of ["aria-label", "title", "placeholder", "alt"]) {
      if (el.hasAttribute(name)) texts.push(el.getAttribute(name));
    }
  }
  for (const t of document.querySelectorAll("svg title")) texts.push(t.textContent);
  return texts;
}"""
# Latin words: what English would be made of (peg names, a letter and a digit, are not words).
WORD = re.compile(r"[A-Za-zÀ-ÿ]{2,}")
# A room's code ("K7QZ2M"), however it is written around it.
CODE = re.compile(r"(?<![A-Za-z0-9])[A-Z0-9]{6}(?![A-Za-z0-9])")
# A game record's tag, as the analysis board's example of the format shows one (docs/records.md).
RECORD_TAG = re.compile(r'\[\w+ "[^"]*"\]')
# The game's and the ratings' own terms (RD: Glicko's rating deviation), the languages' names in the
# footer's switcher (each in itself), a key's name.
ALLOWED = {"CPU", "BOT", "API", "Glicko", "Elo", "RD", "English", "Deutsch", "Français", "Español", "Enter"}


def english_left(page: Page, allowed: set[str]) -> list[str]:
    """The Latin words on the page but the texts ``allowed`` (names, ids), the terms and the room codes."""
    found = []
    # The home page lists other tests' games and arenas on this worker's shared server: their players' and
    # arenas' names (people's own words) too.
    allowed = allowed | set(page.locator("#live-games .live-side b, #arenas li a b").all_inner_texts())
    for text in page.evaluate(READ):
        for line in (text or "").splitlines():
            for token in allowed:
                line = line.replace(token, " ")
            words = [w for w in WORD.findall(RECORD_TAG.sub(" ", CODE.sub(" ", line))) if w not in ALLOWED]
            if words:
                found.append(f"{page.url}: {words} in {line.strip()[:120]!r}")
    return found


def test_the_japanese_pages_leave_no_english(new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page(extra_http_headers={"Accept-Language": "ja"})
    watch_fetches(page)
    names = {"hanako"}  # the account's username (names are the players' own)
    found: list[str] = []

    page.goto("/")
    page.locator("#name-input").fill("花子")
    page.locator(".levels input[value='1']").check(force=True)
    page.locator("#play-cpu").click()
    page.wait_for_url(re.compile(r"/r/[A-Za-z0-9]+$"))
    page.wait_for_function("() => { const s = window.__room && window.__room.state; return !!(s && s.game); }")
    for _ in range(2):  # a1 chosen, then dropped; the CPU's reply is awaited
        page.locator("#topview .peg[data-peg='a1']").click()
    page.wait_for_function("() => window.__room.state.game.ply >= 2")
    found += english_left(page, names)
    game_id = page.evaluate("() => window.__room.state.game.id")
    player_id = page.evaluate("() => window.__room.state.you.player")
    page.locator("#resign").click()
    page.locator("#resign").click()
    page.wait_for_function("() => window.__room.state.game.status !== 'playing'")
    found += english_left(page, names)  # the result, Play again

    for url, ready in [
        (f"/games/{game_id}", "#moves li"),
        (f"/players/{player_id}", "#recent tr"),
        ("/ratings", "#board-status"),
        ("/analysis?record=a1+b2+c3", "#to-move:not(:empty)"),
        ("/puzzles", "#task:not(:empty)"),
    ]:
        settle(page, url, ready)
        puzzle = page.locator("#puzzle-id").all_inner_texts()
        found += english_left(page, names | set(puzzle))

    post(page, "/api/accounts/register", {"username": "hanako", "password": "correct horse"})
    arena = post(page, "/api/tournaments", {"name": "花子杯", "minutes": 20, "turn_seconds": 30})
    for url, ready in [
        ("/my/games", "#my-games-h"),
        (f"/tournaments/{arena['id']}", "#arena-name:not(:empty)"),
        ("/", "#account-user"),
    ]:
        settle(page, url, ready)
        found += english_left(page, names)
    assert found == [], "English on the Japanese pages:\n" + "\n".join(found)
    assert page.js_errors == []
