"""An arena in the browser: an account creates it from the home page, two devices join from its page, are
paired into a room, play; a third device watches the standings change; the arena ends and shows its podium."""

from __future__ import annotations

import re
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.playkit import send_drop, state, wait_ply

pytestmark = pytest.mark.browser

TEN_QUIET = ["a1", "a1", "a1", "a1", "b1", "b1", "b1", "b1", "c2", "c2"]


def end_arena_now(database: Path, arena_id: int) -> None:
    """The arena's end time passes now (as if its minutes were up): nobody is paired any more."""
    ended = (datetime.now(UTC) - timedelta(seconds=1)).strftime("%Y-%m-%d %H:%M:%S.%f")
    with sqlite3.connect(database) as db:
        db.execute("UPDATE tournaments_arena SET ends_at = ? WHERE id = ?", (ended, arena_id))


def my_colour(page: Page) -> str:
    room = state(page)
    return "red" if room["you"]["seat"] == room["game"]["red_seat"] else "yellow"


def test_two_devices_play_an_arena_to_its_podium(new_page, server_sqlite) -> None:  # type: ignore[no-untyped-def]
    """On the browser tests' server (its pairing wave each second), whose database file this test moves the
    arena's end in."""
    ann = new_page()
    ann.goto("/")
    register = ann.locator("#register-form")
    register.get_by_label("Username").fill("arena_ann")
    register.get_by_label("Password").fill("correct horse battery")
    register.get_by_role("button", name="Create account").click()
    expect(ann.locator("#account-user")).to_be_visible()
    ann.locator(".arena-create summary").click()
    ann.locator("#arena-form").get_by_role("button", name="Create the arena").click()
    ann.wait_for_url("**/tournaments/*")
    arena_id = int(ann.url.rstrip("/").rsplit("/", 1)[1])
    expect(ann.locator("#arena-phase")).to_have_text("Ends in")

    watcher = new_page(width=390, height=844)  # a phone, not playing
    watcher.goto(f"/tournaments/{arena_id}")
    expect(watcher.locator("#standings-empty")).to_be_visible()

    bob = new_page()
    bob.goto(f"/tournaments/{arena_id}")
    bob.get_by_role("button", name="Join").click()
    expect(watcher.locator("#standings-body tr")).to_have_count(1)
    ann.get_by_role("button", name="Join").click()
    # Both are paired by the arena loop within a few seconds and taken into their room.
    for page in (ann, bob):
        page.wait_for_url("**/r/*")
        page.wait_for_function("() => !!(window.__room && window.__room.state && window.__room.state.game)")
    assert ann.url == bob.url
    assert state(ann)["game"]["tournament"] == arena_id
    expect(watcher.locator("#standings-body .tag", has_text="playing")).to_have_count(2)
    red, yellow = (ann, bob) if my_colour(ann) == "red" else (bob, ann)
    # The loser-to-be goes berserk before their first move, over the arena's socket (arena/socket.js): the
    # room's next frame shows it, the button lit and disabled.
    berserk = yellow.locator("#berserk")
    expect(berserk).to_be_visible()
    berserk.click()
    expect(berserk).to_be_disabled()
    expect(berserk).to_have_class(re.compile(r"\bon\b"))
    assert state(yellow)["game"]["berserk"][my_colour(yellow)] is True
    for ply, peg in enumerate(TEN_QUIET):
        if ply == 9:
            end_arena_now(server_sqlite, arena_id)  # the game in progress finishes and counts
        send_drop(red if ply % 2 == 0 else yellow, peg)  # as a tap's drop sends it: the arena is the point
    wait_ply(yellow, 10)
    yellow.locator("#resign").click()
    yellow.locator("#resign").click()  # "Tap again to resign"
    # The watcher sees the points arrive live, and the podium once the last game is over.
    red_name = state(red)["seats"][state(red)["you"]["seat"] - 1]["player"]["name"]
    expect(watcher.locator("#standings-body tr").first).to_contain_text(red_name)
    expect(watcher.locator("#standings-body tr").first.locator("td").nth(2)).to_have_text("2")
    expect(watcher.locator("#podium")).to_be_visible()
    expect(watcher.locator("#podium-list li").first).to_contain_text(red_name)
    # The room offers the way back, and the arena's page shows the end.
    back = red.get_by_role("link", name="Back to the arena")
    expect(back).to_be_visible()
    expect(red.locator("#again")).to_be_hidden()
    back.click()
    red.wait_for_url(f"**/tournaments/{arena_id}")
    expect(red.locator("#arena-phase")).to_have_text("Finished")
    expect(red.locator("#standings-body tr.mine")).to_contain_text("2")
    for page in (ann, bob, watcher):
        assert page.js_errors == [], page.js_errors  # type: ignore[attr-defined]
