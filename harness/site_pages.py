"""Every page of the site, listed once: what the check of every page (tests/e2e/test_pages.py: layout, axe) and
``make screenshots`` (scripts/screenshots.py) open, and the data they need, made through the site itself.

A route of the site that is not an API is in ``PAGES`` or in ``NOT_PAGES`` (with why):
tests/e2e/test_pages.py fails for a route in neither, so a new page is seen by both at once.
"""

from __future__ import annotations

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
# What the home page's Create a party room sends: its form's defaults (home.html, home/main.js createRoom).
PARTY_RULES: dict[str, object] = {"turn_seconds": None, "days_per_move": None, "alternate_first": True, "ranked": True,
                                  "open": False}
PAGES: tuple[SitePage, ...] = (
    SitePage("home", "frontend:home", "/", "#account-user:not([hidden])"),
    SitePage("room", "frontend:room", "/r/{room}", "#choose:not([hidden])", primary="#choose"),
    SitePage("room-waiting", "frontend:room", "/r/{party}", "#start:not([hidden])", primary="#start"),
    SitePage("room-over", "frontend:room", "/r/{over}", "#again:not([hidden])", primary="#again"),
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
    """Makes, through the site's API as its pages call it (from ``page``, with its cookies), what the pages
    show: a game against the computer played (a move dropped on the room page) and resigned (its room
    offers Play again), another one in progress, a party room waiting to start, an account (``ann_`` and a
    few letters) signed in on ``page``'s context, an arena it created, a run of 2048 played and ended;
    answers the paths' fields.
    (The forms that make these are each submitted by a browser test of their own.)"""
    if not page.url.startswith("http"):  # the site's cookies and its CSRF token, unless a page of it is open
        _open(page, "/accounts/reset", "main h1")  # a light page
    _post(page, "/api/session", {"name": "Ann"})
    over = _play_the_computer(page)
    peg = page.locator("#topview [data-peg='a1']")
    peg.click()  # a tap shows the ghost bead, a second drops it
    page.wait_for_function("() => window.__room.selected === 'a1'")
    peg.click()
    page.wait_for_function("() => window.__room.state.game.ply >= 1")
    fields = {"over": over, "game": page.evaluate("() => window.__room.state.game.id"),
              "player": page.evaluate("() => window.__room.state.you.player")}
    page.locator("#resign").click()
    page.locator("#resign").click()  # the second click confirms
    page.wait_for_function("() => window.__room.state.game.status !== 'playing'")
    fields["room"] = _play_the_computer(page)  # a game in progress: the room page shows Choose
    fields["party"] = str(_post(page, "/api/rooms", PARTY_RULES)["code"])  # as the home page's Create a party room
    # Registered from a page with no socket and no request of its own, as from the sign-in dialog of a page:
    # the room page's socket is closed by the hand-over (4409) and its scripts' requests would race the
    # session's new key.
    _open(page, "/accounts/reset", "main h1")
    # Its own requests answered first: one still in flight could bring back the session's old cookie after
    # the registration's new one (once in CI, the arena's POST below was 403 no_account).
    page.wait_for_load_state("networkidle")
    username = "ann_" + page.evaluate("() => Math.random().toString(36).slice(2, 8)")
    _post(page, "/api/accounts/register", {"username": username, "password": PASSWORD})
    # As the arena form sends its defaults.
    arena = _post(page, "/api/tournaments", {"name": "Evening arena", "starts_at": None, "minutes": 30,
                                             "turn_seconds": 30, "ranked": True, "berserk": True})
    fields["arena"] = str(arena["id"])
    fields["puzzle"] = str(page.evaluate("() => fetch('/api/puzzles/next').then((r) => r.json())")["id"])
    fields["arcade_run"] = _play_2048(page)
    return fields


# A POST from the page, as its scripts send one: JSON, with the session's cookie and its CSRF token.
POST = """async ([url, body]) => {
  const token = (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || "";
  const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json", "X-CSRFToken": token },
                               body: JSON.stringify(body) });
  return { status: r.status, body: await r.json() };
}"""


def _post(page: Page, url: str, body: dict[str, object]) -> dict[str, object]:
    answer = page.evaluate(POST, [url, body])
    assert answer["status"] in {200, 201}, (url, answer)
    return dict(answer["body"])


def _play_2048(page: Page) -> str:
    """A run of 2048 started (as the page's Start starts it), played a few moves on its page and ended (End
    run, asked twice): its id."""
    run = str(_post(page, "/api/arcade/runs", {"mode": "classic"})["id"])
    page.goto("/arcade/2048")  # the page takes up the device's run
    page.wait_for_function("(id) => { const s = window.__arcade && window.__arcade.sync;"
                           " return !!(s && s.id === id && s.run && !s.pending); }", arg=run)
    for key in ("ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown") * 3:
        page.keyboard.press(key)
    page.wait_for_function("() => !window.__arcade.sync.pending && !window.__arcade.sync.queue.length")
    page.locator("#arcade-end").click()
    page.locator("dialog[open] button[value=yes]").click()
    page.locator("dialog[open] button[value=yes]").click()
    page.wait_for_function("() => window.__arcade.sync.run.status === 'ended'")
    return run


def _play_the_computer(page: Page) -> str:
    """A room with a game against the computer (level 1, unrated, untimed), made as the home page's Play the
    computer makes it, and its page opened until the player's turn: the room's code."""
    code = str(_post(page, "/api/rooms", {"cpu_level": 1, "ranked": False, "turn_seconds": None})["code"])
    page.goto(f"/r/{code}?start=1")  # where the home page sends its player: the game starts at once
    page.wait_for_function(MY_TURN)
    return code


def _open(page: Page, path: str, ready: str) -> None:
    """Opens a page and waits until its scripts have run (a click before would submit a bare form): until
    ``ready`` is on the page."""
    page.goto(path)
    page.wait_for_selector(ready, state="attached")


MY_TURN = """() => { const s = window.__room && window.__room.state;
  return !!(s && s.game && s.game.status === 'playing' && s.you && s.game.to_move_seat === s.you.seat); }"""
