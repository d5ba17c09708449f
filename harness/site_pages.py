"""Every page of the site, listed once: what the layout check (tests/e2e/test_layout.py) and
``make screenshots`` (scripts/screenshots.py) open, and the data they need, made through the site itself.

A route of the site that is not an API is in ``PAGES`` or in ``NOT_PAGES`` (with why):
tests/e2e/test_layout.py fails for a route in neither, so a new page is seen by both at once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from playwright.sync_api import Page

# The viewports every page is seen at: a phone, a tablet, a laptop, a desktop.
VIEWPORTS: tuple[tuple[int, int], ...] = ((390, 844), (768, 1024), (1280, 800), (1920, 1080))
THEMES = ("light", "dark")
PASSWORD = "layout-check-3d!"


@dataclass(frozen=True)
class SitePage:
    """One page: its route's name, its path (``{room}``-style fields filled from ``prepare``'s answer), a
    selector present once its script has drawn, and the element that must be in view without scrolling
    (the room's primary action) from ``PRIMARY_FROM`` pixels wide."""

    name: str
    route: str
    path: str
    ready: str
    primary: str = ""
    status: int = 200


PRIMARY_FROM = 1280
PAGES: tuple[SitePage, ...] = (
    SitePage("home", "frontend:home", "/", "#account-user:not([hidden])"),
    SitePage("room", "frontend:room", "/r/{room}", "#choose:not([hidden])", primary="#choose"),
    SitePage("room-waiting", "frontend:room", "/r/{party}", "#start:not([hidden])", primary="#start"),
    SitePage("replay", "frontend:replay", "/games/{game}", "#moves li"),
    SitePage("player", "frontend:player", "/players/{player}", "#recent li, #recent tr"),
    SitePage("ratings", "frontend:ratings", "/ratings", "#leaderboard"),
    SitePage("analysis", "frontend:analysis", "/analysis?record=a1+b2+c3", "#verdict[data-verdict]"),
    SitePage("arenas", "frontend:arenas", "/arenas", "#arenas-page-h"),
    SitePage("arena", "frontend:arena", "/tournaments/{arena}", "#arena-name:not(:empty)"),
    SitePage("puzzles", "frontend:puzzles", "/puzzles", "#task:not(:empty)"),
    SitePage("puzzle", "frontend:puzzle", "/puzzles/{puzzle}", "#task:not(:empty)"),
    SitePage("arcade", "frontend:arcade", "/arcade", "body[data-loaded]"),
    SitePage("arcade-2048", "frontend:arcade-2048", "/arcade/2048", "#arcade-keys:not(:empty)"),
    SitePage("arcade-3d", "frontend:arcade-3d", "/arcade/3d", "#arcade-keys:not(:empty)"),
    SitePage("arcade-scores", "frontend:arcade-scores", "/arcade/scores", "body[data-loaded]"),
    SitePage("arcade-run", "frontend:arcade-run", "/arcade/runs/{arcade_run}", "body[data-loaded]"),
    SitePage("challenges", "frontend:challenges", "/challenges", "#challenges-h"),
    SitePage("my-games", "frontend:my-games", "/my/games", "#my-finished .my-game"),  # the resigned game
    SitePage("account", "frontend:account", "/account", "#acct-body:not([hidden])"),
    SitePage("reset-ask", "account-reset-ask", "/accounts/reset", "main h1"),
    SitePage("reset", "account-reset", "/accounts/reset/MQ.not-a-token", "main h1"),
    SitePage("close", "account-delete", "/accounts/delete", "main h1"),
    SitePage("unsubscribe", "account-unsubscribe", "/accounts/unsubscribe/not-a-token", "main h1"),
    SitePage("confirm", "account-confirm", "/accounts/confirm/not-a-token", "main h1", status=400),
)
NOT_PAGES = {
    "metrics": "Prometheus's text, not a page",
    "frontend:favicon": "an icon",
    "frontend:set-language": "a form's POST (it answers a redirect)",
    "frontend:js-catalog": "a script",
    "frontend:arcade-sw": "a script: the arcade's service worker",
    "moderation-warning": "shown only to a warned player (tests/moderation); otherwise a redirect",
}


def is_page_route(path: str) -> bool:
    """Whether a route's pattern could be a page: not the API, the admin, the schema or static files."""
    return not path.startswith(("api/", "admin/", "static/", "ws/"))


def prepare(page: Page) -> dict[str, str]:
    """Makes, through the site's own forms as a person would, what the pages show: a game against the
    computer played and resigned, another one in progress, a party room waiting to start, an account
    (``ann_`` and a few letters) signed in on ``page``'s context, an arena it created; answers the paths'
    fields."""
    _open(page, "/")
    page.fill("#name-input", "Ann")
    page.locator(".levels input[value='1']").check(force=True)
    _play_the_computer(page)
    peg = page.locator("#topview [data-peg='a1']")
    peg.click()  # a tap shows the ghost bead, a second drops it
    page.wait_for_function("() => window.__room.selected === 'a1'")
    peg.click()
    page.wait_for_function("() => window.__room.state.game.ply >= 1")
    fields = {"game": page.evaluate("() => window.__room.state.game.id"),
              "player": page.evaluate("() => window.__room.state.you.player")}
    page.locator("#resign").click()
    page.locator("#resign").click()  # the second click confirms
    page.wait_for_function("() => window.__room.state.game.status !== 'playing'")
    _open(page, "/", HOME_READY)
    _play_the_computer(page)  # a game in progress: the room page shows Choose
    fields["room"] = page.url.rsplit("/", 1)[1]
    _open(page, "/", HOME_READY)
    page.locator("#create-room").click()
    page.wait_for_url(re.compile(r"/r/[A-Za-z0-9]+$"))
    fields["party"] = page.url.rsplit("/", 1)[1]
    _open(page, "/", HOME_READY)
    page.fill("#register-username", "ann_" + page.evaluate("() => Math.random().toString(36).slice(2, 8)"))
    page.fill("#register-password", PASSWORD)
    page.locator("#register").click()
    page.wait_for_selector("#account-user:not([hidden])")
    _open(page, "/arenas")
    page.locator(".arena-create summary").click()
    page.locator("#arena-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/tournaments/\d+$"))
    fields["arena"] = page.url.rsplit("/", 1)[1]
    fields["puzzle"] = str(page.evaluate("() => fetch('/api/puzzles/next').then((r) => r.json())")["id"])
    fields["arcade_run"] = _play_2048(page)
    return fields


def _play_2048(page: Page) -> str:
    """A run of 2048 started, played a few moves and ended (End run, asked twice): its id."""
    _open(page, "/arcade/2048")
    page.locator("#arcade-start").click()
    page.wait_for_function("() => !!(window.__arcade && window.__arcade.sync.id)")
    for key in ("ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown") * 3:
        page.keyboard.press(key)
    page.wait_for_function("() => !window.__arcade.sync.pending && !window.__arcade.sync.queue.length")
    page.locator("#arcade-end").click()
    page.locator("dialog[open] button[value=yes]").click()
    page.locator("dialog[open] button[value=yes]").click()
    page.wait_for_function("() => window.__arcade.sync.run.status === 'ended'")
    return str(page.evaluate("() => window.__arcade.sync.id"))


def _play_the_computer(page: Page) -> None:
    page.locator("#play-cpu").click()
    page.wait_for_url(re.compile(r"/r/[A-Za-z0-9]+$"))
    page.wait_for_function(MY_TURN)


# The home page once its script has read the session of a device that has a player (its rating shown).
HOME_READY = "#me:not([hidden])"


def _open(page: Page, path: str, ready: str = "") -> None:
    """Opens a page and waits until its scripts have run (a click before would submit a bare form): until
    ``ready`` is on the page, else until the network is idle (half a second with no request)."""
    page.goto(path)
    if ready:
        page.wait_for_selector(ready, state="attached")
    else:
        page.wait_for_load_state("networkidle")


MY_TURN = """() => { const s = window.__room && window.__room.state;
  return !!(s && s.game && s.game.status === 'playing' && s.you && s.game.to_move_seat === s.you.seat); }"""
