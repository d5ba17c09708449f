"""When a move fails or the connection drops: the page says so, and the player can go on."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import browser_server_env
from tests.e2e.playkit import MY_TURN, drop, state
from tests.livekit import LiveServer, sqlite_database

pytestmark = pytest.mark.browser

OUTCOME = "async ([frame, pending]) => (await import('/static/frontend/room/errors.js')).errorOutcome(frame, pending)"


def test_the_page_offers_a_drop_that_met_a_server_error_again(new_page) -> None:  # type: ignore[no-untyped-def]
    """The page's decision for an error frame (errors.js), checked in the browser that runs it.

    A real `server_error` frame needs the server side of the issue; the room page applies this outcome
    in onError: it unlocks the board, selects `select` again (so one tap on Choose retries) and shows `text`.
    """
    page = new_page()
    page.goto("/")
    frame = {"type": "error", "code": "server_error", "message": "Internal error: try again."}
    out = page.evaluate(OUTCOME, [frame, "b3"])
    assert out["select"] == "b3" and out["cross"] is None and out["kind"] == "error"
    assert "did not go through" in out["text"] and "try again" in out["text"]

    # Not about a drop (nothing was in flight): say so, select nothing.
    out = page.evaluate(OUTCOME, [frame, None])
    assert out["select"] is None and "nothing changed" in out["text"]

    # The other refusals keep their meaning: a stale board is not retried blindly, a full peg is crossed.
    out = page.evaluate(OUTCOME, [{"type": "error", "code": "stale", "message": "x"}, "b3"])
    assert out["select"] is None and "moved on" in out["text"]
    out = page.evaluate(OUTCOME, [{"type": "error", "code": "peg_full", "message": "Peg b3 is full."}, "b3"])
    assert out == {"text": "Peg b3 is full.", "kind": "error", "select": None, "cross": "b3"}
    out = page.evaluate(OUTCOME, [{"type": "error", "code": "not_host", "message": "Only the host can."}, None])
    assert out["text"] == "Only the host can." and out["select"] is None


@pytest.fixture
def own_server(tmp_path: Path, chromium_path: Path):  # type: ignore[no-untyped-def]
    """A server of this test's own, which the test may crash and restart (on the same port)."""
    env = browser_server_env(SQLITE_PATH=sqlite_database(tmp_path), CPU_WORKERS="0")
    server = LiveServer(env, log_dir=tmp_path).start()
    try:
        yield server
    finally:
        server.stop()


def test_the_page_reconnects_and_resyncs_after_the_server_dies(browser, own_server) -> None:  # type: ignore[no-untyped-def]
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, base_url=own_server.http)
    try:
        page = ctx.new_page()
        page.goto("/")
        page.get_by_label("Your name").fill("Solo")
        page.locator(".levels input[value='1']").check(force=True)
        page.get_by_role("button", name="Play the computer").click()
        page.wait_for_url(re.compile(r"/r/[A-Za-z0-9]+$"))
        page.wait_for_function("() => { const s = window.__room && window.__room.state; return !!(s && s.game); }")
        drop(page, "a1")
        page.wait_for_function(MY_TURN)  # the CPU answered
        before = state(page)

        # A crash closes the socket without a proper close frame, as an unexpected server failure does.
        own_server.kill()
        expect(page.locator("#conn")).to_have_attribute("data-state", "reconnecting")
        expect(page.locator("#conn")).to_have_text("Reconnecting…")

        own_server.start()
        expect(page.locator("#conn")).to_have_attribute("data-state", "open")
        after = state(page)
        assert after["game"]["id"] == before["game"]["id"]
        assert after["game"]["moves"] == before["game"]["moves"]
        assert after["you"]["seat"] == before["you"]["seat"]
        # And play goes on from where it was.
        drop(page, "b2")
        page.wait_for_function("(n) => window.__room.state.game.ply > n", arg=len(before["game"]["moves"]) + 1)
    finally:
        ctx.close()
