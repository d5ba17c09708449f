"""The pages in every language: rendered in process with the browser's Accept-Language (or the account's
preference), each has ``<html lang>`` right, its texts in the language, and no text of its English page
left over (names, peg names and the game's own terms aside)."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.test import Client

from tests.bots.botkit import account, signed_in
from tests.players.test_preferences import patch

PAGES = ["/", "/r/K7QZ2M", "/players/0b6d8a52-1a6e-4c1e-8f5e-1d7c2a3b4c5d", "/games/g1", "/puzzles", "/analysis",
         "/tournaments/1", "/arenas", "/challenges", "/my/games", "/ratings"]
# What each page says in each language, whatever else it says.
KNOWN = {
    "/": {"ja": ["立体四目並べ", "オンライン対局", "遊び方"], "de": ["Online spielen", "So wird gespielt"],
          "fr": ["Jouer en ligne", "Comment jouer"], "es": ["Jugar en línea", "Cómo se juega"]},
    "/r/K7QZ2M": {"ja": ["ルーム K7QZ2M", "投了"], "de": ["Raum K7QZ2M", "Aufgeben"],
                  "fr": ["Salle K7QZ2M", "Abandonner"], "es": ["Sala K7QZ2M", "Abandonar"]},
    "/players/0b6d8a52-1a6e-4c1e-8f5e-1d7c2a3b4c5d": {"ja": ["最近の対局"], "de": ["Letzte Partien"],
                                                      "fr": ["Parties récentes"], "es": ["Partidas recientes"]},
}
# Texts a page shows the same in every language: peg names, numbers, codes, the game's own terms, and
# the languages' names; then the words a language writes as English does.
SAME_EVERYWHERE = {"3D", "RD", "K7QZ2M", "Berserk", "🔥 Berserk", "⚙", "#", "·", "…", ".", "0", "0:00", "1500?",
                   "1620?", "b3", "a\N{EN DASH}d", "1\N{EN DASH}4", "30 s", "60 s",
                   "1 · ", "2 · ", "3 · ", "4 · ", "5 · ",
                   *(str(n) for n in (1, 2, 3, 4, 5, 10, 30, 60, 90, 180)),
                   "English", "日本語", "Deutsch", "Français", "Español"}
SAME_IN = {
    "ja": set(),
    "de": {"Name", "Engine", "Analyse", "online", "Chat", "Arena", "Podium", "Bot", "Party", "Computer", "Arcade"},
    "fr": {"Notifications", "Volume", "minutes", "Analyse", "Message", "Points", "Perf.", "Podium", "Pause", "bot",
           "Arcade"},
    "es": {"Arenas", "Arena", "arena", "Chat", "bot", "Arcade"},
}


class Texts(HTMLParser):
    """The texts a person reads or hears: text nodes outside scripts and styles, and the attributes a
    screen reader or a form shows."""

    def __init__(self) -> None:
        super().__init__()
        self.found: set[str] = set()
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in {"script", "style"}:
            self.skip += 1
        attributes = dict(attrs)
        shown = [attributes.get(name) for name in ("placeholder", "aria-label", "title")]
        if tag == "input" and attributes.get("type", "text") == "text":
            shown.append(attributes.get("value"))  # a field's text as it comes (the arena's name)
        self.found.update(value.strip() for value in shown if value and value.strip())

    def handle_endtag(self, tag: str) -> None:
        if tag in {"script", "style"}:
            self.skip -= 1

    def handle_data(self, data: str) -> None:
        if not self.skip and data.strip():
            self.found.add(" ".join(data.split()))


def texts(html: str) -> set[str]:
    parser = Texts()
    parser.feed(html)
    return parser.found


@pytest.fixture(scope="module")
def browser() -> Client:
    """One client for the module: each new one builds the middleware again (WhiteNoise reads every
    static file's name then)."""
    return Client()


def page(browser: Client, path: str, language: str) -> str:
    answer = browser.get(path, HTTP_ACCEPT_LANGUAGE=f"{language},en;q=0.5")
    assert answer.status_code == 200, path
    return answer.content.decode()


@pytest.mark.parametrize("language", ["ja", "de", "fr", "es"])
def test_every_page_is_in_the_browsers_language_with_no_english_left(browser, language):
    left = {}
    for path in PAGES:
        html, english = page(browser, path, language), page(browser, path, "en")
        assert f'<html lang="{language}">' in html and '<html lang="en">' in english
        left[path] = sorted((texts(html) & texts(english)) - SAME_EVERYWHERE - SAME_IN[language])
        for known in KNOWN.get(path, {}).get(language, []):
            assert known in html, (path, language, known)
    assert {path: found for path, found in left.items() if found} == {}, "English left"


@pytest.mark.django_db
def test_the_account_preference_beats_accept_language_and_the_switcher_returns_to_the_page():
    ann = account("ann")
    laptop, phone = signed_in(ann), signed_in(ann)
    token = laptop.cookies["csrftoken"].value
    answer = laptop.post("/language", {"language": "de", "next": "/r/K7QZ2M"}, HTTP_X_CSRFTOKEN=token)
    assert (answer.status_code, answer["Location"]) == (302, "/r/K7QZ2M")
    room = phone.get("/r/K7QZ2M", HTTP_ACCEPT_LANGUAGE="ja")  # another device: the account's choice
    assert '<html lang="de">' in room.content.decode() and "Raum K7QZ2M" in room.content.decode()
    assert patch(phone, {"language": "es"}).status_code == 200
    assert '<html lang="es">' in laptop.get("/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    # The switcher on every page: the current language chosen, the same page as where it goes back.
    html = laptop.get("/ratings?page=2").content.decode()
    assert '<option value="es" lang="es" selected>Español</option>' in html
    assert 'name="next" value="/ratings?page=2"' in html
