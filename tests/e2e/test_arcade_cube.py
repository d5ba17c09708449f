"""The 3D 2048 page in Chromium with WebGL (docs/arcade.md, "The 3D 2048 page"): it renders and turns by a
drag, "left" moves the tiles to the screen's left before and after a half turn of the view (read from the
page's state: where its camera puts each cell, not from pixels), the page passes axe in light and dark; on a
phone a swipe plays a move without scrolling the page, and the back-view window is dragged and resized and
keeps both after a reload.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.e2e.axekit import violations

pytestmark = [pytest.mark.browser, pytest.mark.webgl]

SETTLED = """() => { const s = window.__arcade && window.__arcade.sync;
  return !!(s && s.run && !s.pending && !s.queue.length); }"""
DRAWN = "() => { const v = window.__arcade && window.__arcade.view; return !!(v && v.frames > 0); }"
# The last move's slide as the page's camera sees it now: each tile that changed cell, from where to where
# on the screen, and the direction played.
SLID = """() => { const v = window.__arcade.view;
  return (v.lastChange?.tiles || []).filter((t) => t.from !== t.to)
    .map((t) => ({ from: v.screenPoint(t.from), to: v.screenPoint(t.to) })); }"""
# The back-view window: where it stands in the cube's view and its side, then where it is on the screen.
BACK_VIEW = """() => { const r = document.querySelector('.cube-backview').getBoundingClientRect();
  const v = document.querySelector('.cube3d').getBoundingClientRect();
  return [r.x - v.x, r.y - v.y, r.width, r.x, r.y]; }"""


def start(page: Page) -> None:
    """Opens the 3x3x3 page as a new device and starts a run."""
    page.goto("/arcade/3d?mode=cube3")
    page.locator("#arcade-start").click()
    page.wait_for_function(SETTLED)
    page.wait_for_function(DRAWN)


def press_left(page: Page) -> list[dict[str, Any]]:
    """Right, then left (which then surely moves a tile): where left moved each tile on the screen."""
    for key in ("ArrowRight", "ArrowLeft"):
        page.keyboard.press(key)
        page.wait_for_function(SETTLED)
    slid: list[dict[str, Any]] = page.evaluate(SLID)
    assert slid, "left moved no tile"
    return slid


def drag(page: Page, x: float, y: float, dx: float, dy: float) -> None:
    page.mouse.move(x, y)
    page.mouse.down()
    for step in range(1, 9):
        page.mouse.move(x + dx * step / 8, y + dy * step / 8)
    page.mouse.up()


def test_the_cube_turns_by_a_drag_and_left_stays_on_the_screens_left(new_page, axe_source) -> None:  # type: ignore[no-untyped-def]
    page = new_page(width=1280, height=800, reduced_motion="no-preference")  # the tiles slide, the view glides
    console: list[str] = []
    page.on("console", lambda msg: console.append(msg.text) if msg.type == "error" else None)
    start(page)
    azimuth = page.evaluate("() => window.__arcade.view.azimuth()")
    box = page.locator(".cube3d canvas").bounding_box()
    assert box is not None
    drag(page, box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.7, 160, 0)
    page.wait_for_function(f"() => Math.abs(window.__arcade.view.azimuth() - {azimuth}) > 0.3")

    first_played = None
    for turn in (0.0, math.pi):  # the view as it stands, then half way round
        page.evaluate(f"() => window.__arcade.view.turnTo(window.__arcade.view.azimuth() + {turn})")
        played = page.evaluate("() => window.__arcade.view.direction('ArrowLeft')")
        slid = press_left(page)
        assert all(t["to"]["x"] < t["from"]["x"] - 5 for t in slid), (turn, played, slid)
        board = page.evaluate("() => window.__arcade.sync.run.board")
        server = page.evaluate("(id) => fetch(`/api/arcade/runs/${id}`).then((r) => r.json())",
                               page.evaluate("() => window.__arcade.sync.id"))
        assert board == server["board"]
        assert played != first_played, "a half turn of the view plays the other way"
        first_played = played

    assert violations(page, axe_source) == []

    # Another size: the view is made again for it, Hard is not offered, and the keys go to the game again.
    page.locator("input[name=cube-size][value='2']").check()
    page.wait_for_function("() => window.__arcade.view.shape[0] === 2 && window.__arcade.view.frames > 0")
    assert page.locator("input[name=cube-level][value=hard]").is_disabled()
    page.keyboard.press("ArrowLeft")  # on a focused radio button it would choose the 3x3x3 again
    assert page.locator("input[name=cube-size][value='2']").is_checked()
    assert page.js_errors == [] and console == []


def swipe(page: Page, x: float, y: float, dx: float) -> None:
    """A finger's swipe sideways (touch events, as a phone's screen sends them)."""
    cdp = page.context.new_cdp_session(page)
    for kind, at in (("touchStart", 0), *(("touchMove", step / 6) for step in range(1, 7)), ("touchEnd", 1)):
        points = [] if kind == "touchEnd" else [{"x": x + dx * at, "y": y}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})
    cdp.detach()


def test_on_a_phone_a_swipe_plays_and_the_back_view_is_dragged_resized_and_kept(new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page(width=390, height=844, is_mobile=True, has_touch=True)
    start(page)
    page.locator(".cube3d").scroll_into_view_if_needed()
    box = page.locator(".cube3d canvas").bounding_box()
    assert box is not None
    scrolled = page.evaluate("() => window.scrollY")
    for dx in (80, -80):  # right, then left (which then surely moves a tile)
        swipe(page, box["x"] + box["width"] * 0.5, box["y"] + box["height"] * 0.75, dx)
        page.wait_for_function(SETTLED)
    slid = page.evaluate(SLID)
    assert slid and all(t["to"]["x"] < t["from"]["x"] - 5 for t in slid), slid
    assert page.evaluate("() => window.scrollY") == scrolled, "a swipe on the cube scrolled the page"

    x, y, size, sx, sy = page.evaluate(BACK_VIEW)
    drag(page, sx + size / 2, sy + size / 2, -150, 100)  # its body: it moves
    moved = page.evaluate(BACK_VIEW)
    assert abs(moved[0] - (x - 150)) <= 2 and abs(moved[1] - (y + 100)) <= 2 and moved[2] == size
    drag(page, moved[3] + 4, moved[4] + moved[2] - 4, -40, 40)  # its bottom-left corner: it grows
    resized = page.evaluate(BACK_VIEW)
    assert resized[2] >= size + 35
    assert abs(resized[0] + resized[2] - (moved[0] + moved[2])) <= 2  # its right edge stays

    page.reload()
    page.wait_for_function(DRAWN)
    kept = page.evaluate(BACK_VIEW)
    assert all(abs(a - b) <= 2 for a, b in zip(kept[:3], resized[:3], strict=True)), (kept, resized)
    assert page.js_errors == []
