"""The arcade's pages in Chromium (docs/arcade.md, "Pages"): 2048 played by keys as fast as a person can
press them (40 keys in half a second, each against the board the one before left, the page's board the
server's), a key that moves nothing adds no tile, a reload resumes the run, a swipe on a phone plays a move
and never scrolls, the network cut mid-run makes the run local, and the high scores open a run's replay.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from arcade.engine import CLASSIC, Direction, slide
from tests.e2e.playkit import QUIET, watch_fetches

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844, "is_mobile": True, "has_touch": True}
KEYS = {"ArrowLeft": "left", "ArrowRight": "right", "ArrowUp": "up", "ArrowDown": "down",
        "a": "left", "d": "right", "w": "up", "s": "down"}
SETTLED = """() => { const s = window.__arcade && window.__arcade.sync;
  return !!(s && s.run && !s.pending && !s.queue.length); }"""
# Keys pressed in the page, one every `gap` ms: the milliseconds from the first to the last.
PRESS = """([keys, gap]) => new Promise((done) => {
  const t0 = performance.now();
  keys.forEach((key, i) => setTimeout(() => {
    document.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));
    if (i === keys.length - 1) done(performance.now() - t0);
  }, i * gap));
})"""
SERVER_RUN = "(id) => fetch(`/api/arcade/runs/${id}`).then((r) => r.json())"
# The board as the page shows it: each tile's cell and value.
SHOWN = """() => { const cells = new Array(16).fill(0);
  for (const t of document.querySelectorAll('#arcade-board .tile'))
    cells[Number(t.dataset.cell)] = Number(t.dataset.value);
  return cells; }"""


def start(page: Page) -> str:
    """Opens 2048 as a new device (a guest is made by Start) and starts a run: its id."""
    page.goto("/arcade/2048")
    page.locator("#arcade-start").click()
    page.wait_for_function(SETTLED)
    return str(page.evaluate("() => window.__arcade.sync.id"))


def settle(page: Page) -> dict[str, Any]:
    page.wait_for_function(SETTLED)
    page.evaluate("() => new Promise((done) => setTimeout(done, 300))")  # the last animation done
    return dict(page.evaluate("() => ({id: window.__arcade.sync.id, board: window.__arcade.sync.run.board,"
                              " steps: window.__arcade.sync.steps, mismatches: window.__arcade.sync.mismatches})"))


def moves_nothing(board: list[int], direction: str) -> bool:
    return not slide(tuple(board), shape=CLASSIC.shape, direction=Direction(direction)).moved


def test_2048_by_keys_fast_no_op_reload_end_scores_and_replay(new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page(width=1280, height=800)
    run_id = start(page)
    opening = settle(page)["board"]

    # 40 keys in half a second: every one played in order against the board the one before left.
    keys = (["ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown", "a", "w", "d", "s"] * 5)[:40]
    assert page.evaluate(PRESS, [keys, 5]) < 500
    after = settle(page)
    server = page.evaluate(SERVER_RUN, run_id)
    assert after["mismatches"] == 0, "an answer's board was not the one the page had worked out"
    assert server["board"] == after["board"] == page.evaluate(SHOWN)
    assert server["steps"] == after["steps"] > 0

    # A key that moves nothing adds no tile and sends nothing.
    board = after["board"]
    for _ in range(20):
        idle = [key for key in ("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown") if moves_nothing(board, KEYS[key])]
        if idle:
            break
        page.evaluate(PRESS, [["ArrowLeft"], 0])
        board = settle(page)["board"]
    assert idle, "no board without a move that moves nothing came up"
    sent = page.evaluate("() => window.__arcade.sync.ref")
    page.evaluate(PRESS, [[idle[0]], 0])
    page.wait_for_timeout(300)
    assert page.evaluate("() => window.__arcade.sync.ref") == sent
    assert settle(page)["board"] == board == page.evaluate(SHOWN)
    assert page.evaluate(SERVER_RUN, run_id)["steps"] == page.evaluate("() => window.__arcade.sync.steps")

    # A reload resumes the run where it stands.
    page.reload()
    resumed = settle(page)
    assert resumed["id"] == run_id and resumed["board"] == board == page.evaluate(SHOWN)
    assert opening != board

    # End run asks twice, then the run is scored.
    page.locator("#arcade-end").click()
    page.locator("dialog[open] button[value=yes]").click()
    expect(page.locator("dialog[open] h2")).to_have_text("Really end the run?")
    page.locator("dialog[open] button[value=yes]").click()
    expect(page.locator("#arcade-panel-h")).to_have_text("Run ended")

    # The high scores: the run ranks, the player's own row highlighted; its replay steps move by move.
    page.goto("/arcade/scores?mode=classic&period=day")
    own = page.locator(f"#scores tr.you[data-run='{run_id}']")
    expect(own).to_be_visible()
    own.locator(".replay-link").click()
    page.wait_for_selector("body[data-loaded]")
    steps = resumed["steps"] + 1  # the moves, then the end
    expect(page.locator("#run-step")).to_have_text(f"0 / {steps}")
    assert page.evaluate(SHOWN) == opening
    page.locator("#run-next").click()
    expect(page.locator("#run-step")).to_have_text(f"1 / {steps}")
    page.wait_for_timeout(300)
    assert sum(1 for value in page.evaluate(SHOWN) if value) in (2, 3)  # the first move's new tile is there
    page.locator("#run-last").click()
    expect(page.locator("#run-step")).to_have_text(f"{steps} / {steps}")
    assert page.evaluate(SHOWN) == board
    assert page.js_errors == []


def swipe(page: Page, x: float, y: float, dx: float, dy: float) -> None:
    """A finger's swipe, as the touch screen sends it (Chromium's own touch events: they scroll a page that
    lets them)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for i in range(1, 7):
        point = {"x": x + dx * i / 6, "y": y + dy * i / 6}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_a_swipe_on_a_phone_plays_a_move_and_the_page_does_not_scroll(new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page(**PHONE)
    run_id = start(page)
    before = settle(page)
    assert page.evaluate("() => document.documentElement.scrollHeight > innerHeight + 50"), "the page cannot scroll"
    box = page.locator("#arcade-board").bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    for dx, dy in ((0, -150), (0, 150), (-150, 0), (150, 0)):  # up first: a finger going up scrolls a page down
        swipe(page, x, y, dx, dy)
        if page.evaluate("() => window.__arcade.sync.ref") > 0:
            break
    after = settle(page)
    assert page.evaluate("() => window.scrollY") == 0
    assert after["steps"] == before["steps"] + 1 == page.evaluate(SERVER_RUN, run_id)["steps"]
    assert after["board"] == page.evaluate(SHOWN)
    assert page.js_errors == []


def test_offline_the_run_goes_on_locally_says_so_and_survives_a_reload(new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    run_id = start(page)
    page.wait_for_function("() => window.__arcade.offlineReady")  # the service worker keeps the page
    before = settle(page)
    page.context.set_offline(True)
    page.wait_for_function("() => window.__arcade.sync.local")
    expect(page.locator("#arcade-local")).to_be_visible()
    expect(page.locator("#arcade-local")).to_contain_text("will not rank")
    sent = page.evaluate("() => window.__arcade.sync.ref")
    page.evaluate(PRESS, [["ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown"] * 2, 20])
    played = page.evaluate("() => window.__arcade.sync.run")
    assert played["moves"] > before["steps"] and played["board"] == page.evaluate(SHOWN)
    assert page.evaluate("() => window.__arcade.sync.ref") == sent  # nothing sent

    page.reload()  # no network: the service worker serves the page, the device keeps the local run
    page.wait_for_function("() => !!(window.__arcade && window.__arcade.sync.local && window.__arcade.sync.run)")
    assert page.evaluate("() => window.__arcade.sync.run.board") == played["board"] == page.evaluate(SHOWN)
    expect(page.locator("#arcade-local")).to_be_visible()

    page.context.set_offline(False)
    expect(page.locator("#arcade-online")).to_be_visible()
    assert page.evaluate(SERVER_RUN, run_id)["steps"] == before["steps"]  # the local moves were never sent
    page.locator("#arcade-back-online").click()
    page.wait_for_function("() => !window.__arcade.sync.local && window.__arcade.sync.id !== null")
    resumed = settle(page)
    assert resumed["id"] == run_id and resumed["board"] == before["board"]


def test_a_start_pressed_before_the_page_has_looked_for_an_open_run_keeps_its_run(new_page) -> None:  # type: ignore[no-untyped-def]
    """The page's first look for an open run, answered after Start (a slow network; the suite's load did it
    once), must not clear the run Start made."""
    page = new_page()
    watch_fetches(page)
    held: list[Any] = []
    # The first look, answered by the server at once (no open run: the device has no player yet) and held
    # back from the page until after Start.
    page.route("**/api/arcade/runs?mode=classic", lambda route: held.append((route, route.fetch())), times=1)
    page.goto("/arcade/2048")
    page.wait_for_function("() => !!window.__arcade")
    while not held:
        page.wait_for_timeout(50)
    page.locator("#arcade-start").click()
    page.wait_for_function(SETTLED)
    run_id = page.evaluate("() => window.__arcade.sync.id")
    route, answer = held[0]
    route.fulfill(response=answer)
    page.wait_for_function(QUIET)  # the answer and whatever the page fetched after it are in
    assert page.evaluate("() => window.__arcade.sync.run && window.__arcade.sync.id") == run_id
    assert page.js_errors == []
