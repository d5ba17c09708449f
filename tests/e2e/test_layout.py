"""Every page as a person sees it (issue 46): each page of harness/site_pages.py at each of its viewports
(a phone, a tablet, a laptop, a desktop), in the light and the dark theme, has no horizontal scroll and no
console error; the settings dialog and the notifications panel open inside the screen;
at a laptop's width and wider the room's primary action (Start, Choose) is in view without scrolling.

One test, each page loaded once and seen at each viewport in turn (the viewport resized; the dark theme
set on the loaded page, as prefs.js sets it, rather than loaded again), without WebGL: the layout is the point, and
the board's place is the same with the top view in it; then the room's two states again with the 3D board,
in the rooms already made, as the same player. A route of the site that is no API and is not
listed in harness/site_pages.py fails the first test.
"""

from __future__ import annotations

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from playwright.sync_api import Page, expect

from harness.site_pages import NOT_PAGES, PAGES, PRIMARY_FROM, THEMES, VIEWPORTS, is_page_route, prepare

pytestmark = pytest.mark.browser

# Everything that sticks out of the screen sideways, and the document's own overflow.
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  if (document.documentElement.scrollWidth > width + 1)
    out.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
  return out;
}"""
# Where an element is, and whether all of it is inside the viewport.
INSIDE = """(sel) => {
  const el = document.querySelector(sel);
  if (!el) return `${sel}: missing`;
  const r = el.getBoundingClientRect();
  const ok = r.width > 0 && r.left >= -1 && r.top >= -1 && r.right <= innerWidth + 1 && r.bottom <= innerHeight + 1;
  return ok ? "" : `${sel} at ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)}`
    + ` outside ${innerWidth}x${innerHeight}`;
}"""


# Two frames later: the layout of a new viewport size is done, and what scripts do on resize too.
NEXT_FRAME = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


def _routes(patterns, prefix: str = "", namespace: str | None = None):  # type: ignore[no-untyped-def]
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, prefix + str(pattern.pattern), pattern.namespace or namespace)
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern), f"{namespace}:{pattern.name}" if namespace else str(pattern.name)


def test_every_page_route_is_listed_once() -> None:
    routes = {name for path, name in _routes(get_resolver().url_patterns) if is_page_route(path)}
    listed = {page.route for page in PAGES}
    assert routes - listed - set(NOT_PAGES) == set(), "a page missing from harness/site_pages.py PAGES"
    assert (listed | set(NOT_PAGES)) - routes == set(), "harness/site_pages.py lists a route the site has not"
    assert len({page.name for page in PAGES}) == len(PAGES)


def _inside(page: Page, selector: str, problems: list[str], where: str) -> None:
    said = page.evaluate(INSIDE, selector)
    if said:
        problems.append(f"{where}: {said}")


def _header_parts(page: Page, problems: list[str], where: str) -> None:
    """The settings dialog and the notifications panel, opened from the header, fit the screen."""
    page.locator("#settings-open").click()
    expect(page.locator("#settings")).to_be_visible()
    _inside(page, "#settings", problems, where)
    page.keyboard.press("Escape")
    expect(page.locator("#settings")).to_be_hidden()
    page.locator("#bell-button").click()
    expect(page.locator("#bell-panel")).to_be_visible()
    _inside(page, "#bell-panel", problems, where)
    page.locator("#bell-button").click()


def test_every_page_fits_the_screen(new_page) -> None:  # type: ignore[no-untyped-def]
    width, height = VIEWPORTS[0]
    page = new_page(width=width, height=height)
    console: list[str] = []
    page.on("console", lambda msg: console.append(f"{page.url}: {msg.text}") if msg.type == "error" else None)
    fields = prepare(page)
    page.add_init_script("addEventListener('DOMContentLoaded', () => { const s = document.createElement('style');"
                         " s.textContent = '*, *::before, *::after { transition: none !important;"
                         " animation: none !important; }'; document.head.append(s); });")
    problems: list[str] = []
    for site_page in PAGES:
        page.set_viewport_size({"width": VIEWPORTS[0][0], "height": VIEWPORTS[0][1]})
        answer = page.goto(site_page.path.format(**fields))
        assert answer is not None and answer.status == site_page.status, (site_page.name, answer and answer.status)
        page.wait_for_selector(site_page.ready, state="attached")
        page.wait_for_load_state("load")
        if site_page.status != 200:  # the browser logs the page's own status as an error
            console[:] = [line for line in console if "status of" not in line]
        for width, height in VIEWPORTS:  # one load, each size in turn: the layout follows the viewport
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate(NEXT_FRAME)
            for theme in THEMES:
                page.evaluate("(t) => { document.documentElement.dataset.theme = t; }", theme)
                where = f"{site_page.name} {width}x{height} {theme}"
                problems += [f"{where}: {said}" for said in page.evaluate(OVERFLOW)]
            if site_page.primary and width >= PRIMARY_FROM:
                _inside(page, site_page.primary, problems, f"{site_page.name} {width}x{height}")
            if site_page.name == "home":
                _header_parts(page, problems, f"home {width}x{height}")
    _with_the_3d_board(new_page, page, fields, problems)
    assert problems == [], "\n".join(problems)
    assert console == [] and page.js_errors == []


def _with_the_3d_board(new_page, page: Page, fields: dict[str, str], problems: list[str]) -> None:  # type: ignore[no-untyped-def]
    """The room with its 3D board (the pages above saw the top view in its place), as the same player in a
    Chromium with WebGL, in the rooms made for the pages: the party room waiting for its game shows Start,
    the game against the computer Choose, each above the bottom edge of a laptop's screen, and the draw
    offer's answer too once an offer comes."""
    board = new_page(width=1280, height=800, webgl=True, storage_state=page.context.storage_state())
    for path, primary, where in ((f"/r/{fields['party']}", "#start", "room waiting"),
                                 (f"/r/{fields['room']}", "#choose", "room playing")):
        board.goto(path)
        expect(board.locator(primary)).to_be_visible()
        board.wait_for_function("() => !!window.__room && !!window.__room.board")
        _inside(board, primary, problems, f"{where} with the 3D board 1280x800")
    board.evaluate("() => { document.querySelector('#offer-box').hidden = false; }")  # as an offer shows it
    _inside(board, "#offer-accept", problems, "room with an offer and the 3D board 1280x800")
    assert board.js_errors == []
