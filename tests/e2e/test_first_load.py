"""A fresh device's first page load is clean: the site icon is there, and nothing fails in the console."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from harness.device import Device
from harness.site_pages import PARTY_RULES

# The headless shell never asks for a page's icon: these run in the whole browser.
pytestmark = [pytest.mark.browser, pytest.mark.desktop_chromium]

ICO_MAGIC = b"\x00\x00\x01\x00"


class Watch:
    """Everything a page reports going wrong: console errors, failed requests, 4xx/5xx answers."""

    def __init__(self, page: Page) -> None:
        self.console: list[str] = []
        self.failed: list[str] = []
        page.on("console", self._console)
        page.on("requestfailed", lambda req: self.failed.append(f"{req.url}: {req.failure}"))
        page.on("response", lambda res: res.status >= 400 and self.failed.append(f"{res.url}: {res.status}"))
        page.on("pageerror", lambda exc: self.console.append(f"uncaught: {exc}"))

        self.icons: list[str] = []
        page.on("response", lambda res: "favicon" in res.url and self.icons.append(f"{res.url}: {res.status}"))
        self.page = page

    def _console(self, msg) -> None:  # type: ignore[no-untyped-def]
        if msg.type == "error":
            self.console.append(f"{msg.text} ({msg.location.get('url', '')})")

    def wait_for_icon(self) -> bool:
        """Until the browser has asked for the page's icon (at most 20 s): a reported response (a linked
        icon) or a console error about it (Chromium does not report its own /favicon.ico fetch as a
        response, and asks for it only once per browser). True when it did ask."""
        for _ in range(200):
            if self.icons or any("favicon" in c for c in self.console):
                return True
            self.page.wait_for_timeout(100)
        return False


def test_the_site_icon_is_served_and_linked(new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    watch = Watch(page)
    page.goto("/")
    # The icon the browser fetches for the page (the linked SVG, or /favicon.ico without a link) loads.
    assert watch.wait_for_icon(), "the browser never asked for an icon"
    assert [c for c in watch.console if "favicon" in c] == []
    assert [f for f in watch.failed if "favicon" in f] == []
    assert watch.icons and all(i.endswith(": 200") for i in watch.icons), watch.icons

    linked = page.evaluate("() => [...document.querySelectorAll('link[rel~=icon]')].map((l) => l.href)")
    assert linked, "no <link rel=icon> in the page"
    for href in linked:
        res = page.request.get(href)
        assert res.status == 200 and res.headers["content-type"] == "image/svg+xml", href
        assert b"<svg" in res.body()
    # Clients that ask without reading the page (and older browsers) get a real ICO file.
    ico = page.request.get("/favicon.ico")
    assert ico.status == 200 and ico.headers["content-type"] == "image/x-icon"
    assert ico.body().startswith(ICO_MAGIC)
    touch = page.request.get(page.evaluate("() => document.querySelector('link[rel=apple-touch-icon]').href"))
    assert touch.status == 200 and touch.body().startswith(b"\x89PNG")


# GET /api/session answers 200 {"player": null} for a device without a player (it used to be a 404,
# which the browser logs as a console error).
# The room page with its 3D board, as a device with WebGL loads it.
@pytest.mark.parametrize("where", ["home", pytest.param("room", marks=pytest.mark.webgl), "puzzles"])
def test_a_fresh_device_loads_a_page_without_console_errors(new_page, server_url, where) -> None:  # type: ignore[no-untyped-def]
    url = "/"
    if where == "room":
        # The host makes the room from a device without a browser page (the API calls the home page makes): this
        # browser has then shown no page of the room, so it asks for the room page's icon (a browser asks once
        # for a page), which the watch waits for.
        host = Device(server_url)
        host.join("Ann")
        url = f"/r/{host.create_room(PARTY_RULES)}"
    elif where == "puzzles":
        url = "/puzzles"
    page = new_page()  # a desktop browser: Chromium's phone emulation never fetches an icon
    watch = Watch(page)
    page.goto(url)
    if where == "room":
        page.wait_for_function("() => window.__room && window.__room.state")
    elif where == "puzzles":
        page.wait_for_function("() => window.__puzzle && window.__puzzle.puzzle")
    page.wait_for_load_state("networkidle")
    watch.wait_for_icon()
    assert watch.console == []
    assert watch.failed == []
