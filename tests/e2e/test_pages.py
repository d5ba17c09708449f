"""Every page as a person sees it (issues 46 and 35), each page of harness/site_pages.py loaded once for two
checks:

- the layout: at each viewport (a phone, a tablet, a laptop, a desktop), in the light and the dark theme,
  no horizontal scroll and no console error; the settings dialog and the notifications panel open inside the
  screen; at a laptop's width and wider the room's primary action (Start, Choose, Play again) is in view
  without scrolling;
- axe-core (tests/e2e/axekit.py) against the WCAG 2.1 A and AA rules, light, then colour contrast dark: each
  page at a laptop's 1280 x 800, the home page at a phone's width too (docs/accessibility.md).

One browser context: the home page as a fresh device sees it, then as the account ``prepare`` makes, each page
in turn, resized to each viewport (the dark theme set on the loaded page, as prefs.js sets it, rather than
loaded again), without WebGL: the board's place is the same with the top view in it. Then the room's two
states with the 3D board, in the rooms already made, as the same player; last the finished game's room in
blind mode and out of it at a phone's width, and 2048 with its board in words. A route of the site that is
no API and is not listed in harness/site_pages.py fails the first test.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from playwright.sync_api import Page, expect

from harness.site_pages import NOT_PAGES, PAGES, PRIMARY_FROM, THEMES, VIEWPORTS, SitePage, is_page_route, prepare
from tests.e2e.axekit import violations
from tests.e2e.playkit import QUIET, watch_fetches

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
NO_MOTION = ("addEventListener('DOMContentLoaded', () => { const s = document.createElement('style');"
             " s.textContent = '*, *::before, *::after { transition: none !important;"
             " animation: none !important; }'; document.head.append(s); });")
AXE_AT = (1280, 800)  # every page's axe check; the home page's at a phone's width too (the layouts that fold)
PHONE_AXE = {"home-guest", "home"}
GUEST_HOME = SitePage("home-guest", "frontend:home", "/", "#cpu-form")


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


def _open(page: Page, path: str, ready: str, status: int = 200) -> None:
    """Opens a page at a phone's size and waits until its scripts have drawn it: ``ready`` is on the page and
    no request is in flight (playkit's ``QUIET``)."""
    page.set_viewport_size({"width": VIEWPORTS[0][0], "height": VIEWPORTS[0][1]})
    answer = page.goto(path)
    assert answer is not None and answer.status == status, (path, answer and answer.status)
    page.wait_for_selector(ready, state="attached")
    page.wait_for_function(QUIET)


def _check(page: Page, site_page: SitePage, path: str, axe: Path, problems: list[str], found: list[str]) -> None:
    """One page, loaded once: its layout at each viewport in each theme, and axe at ``AXE_AT`` (and at the
    phone's size for the pages of ``PHONE_AXE``)."""
    _open(page, path, site_page.ready, site_page.status)
    if site_page.name in PHONE_AXE:
        found += violations(page, axe)
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
            _header_parts(page, problems, f"{site_page.name} {width}x{height}")
        if (width, height) == AXE_AT:
            found += violations(page, axe)


def test_every_page_fits_the_screen_and_passes_axe(new_page, axe_source) -> None:  # type: ignore[no-untyped-def]
    width, height = VIEWPORTS[0]
    page = new_page(width=width, height=height)
    console: list[str] = []
    page.on("console", lambda msg: console.append(f"{page.url}: {msg.text}") if msg.type == "error" else None)
    page.add_init_script(NO_MOTION)
    watch_fetches(page)
    problems: list[str] = []
    found: list[str] = []
    _check(page, GUEST_HOME, GUEST_HOME.path, axe_source, problems, found)  # a fresh device: a guest to be
    fields = prepare(page)
    for site_page in PAGES:
        _check(page, site_page, site_page.path.format(**fields), axe_source, problems, found)
        if site_page.status != 200:  # the browser logs the page's own status as an error
            console[:] = [line for line in console if "status of" not in line]
    _with_the_3d_board(new_page, page, fields, problems)
    # Last, as they turn the device's blind preference on (and so the 3D board off) and off again: blind
    # mode's board in words in the finished game's room, then out of it at a phone's width; 2048's board in
    # words.
    page.set_viewport_size({"width": AXE_AT[0], "height": AXE_AT[1]})
    page.goto(f"/r/{fields['over']}?blind=1")
    page.wait_for_selector("#blind-board li", state="attached")
    page.wait_for_function(QUIET)
    found += violations(page, axe_source)
    _open(page, f"/r/{fields['over']}?blind=0", "#moves li")
    found += violations(page, axe_source)
    page.set_viewport_size({"width": AXE_AT[0], "height": AXE_AT[1]})
    page.goto("/arcade/2048")
    page.wait_for_selector("#arcade-keys:not(:empty)", state="attached")
    toggle = page.locator("#arcade-words-toggle")
    if toggle.get_attribute("aria-pressed") != "true":  # on already if the room's ?blind=0 left the preference on
        toggle.click()
    expect(page.locator("#arcade-grid li").first).to_be_visible()
    page.wait_for_function(QUIET)
    found += violations(page, axe_source)
    assert problems == [], "\n".join(problems)
    assert found == [], "axe-core found WCAG 2.1 A/AA violations:\n" + "\n".join(found)
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
