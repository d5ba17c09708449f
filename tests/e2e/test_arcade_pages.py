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
    assert page.evaluate(PRESS, [keys, 10]) < 500
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
    assert page.js_errors == []
