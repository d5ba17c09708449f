"""Blind mode in the browser: two people play by typing pegs, each hears the other's move in the live
region (found by its role in the accessibility tree), a full peg and a line that is no move are spoken."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.playkit import create_party_room, wait_ply

pytestmark = pytest.mark.browser

PLAYING = "() => { const g = window.__room && window.__room.state && window.__room.state.game; " \
          "return !!g && g.status === 'playing'; }"


def typed(page: Page, line: str) -> None:
    box = page.get_by_label("Your move or a command")
    box.press_sequentially(line)  # key by key, as a person types: the page's keys leave the field alone
    box.press("Enter")


def heard(page: Page):  # type: ignore[no-untyped-def]
    return page.get_by_role("log", name="Announcements")


def test_two_players_play_by_typing_and_hear_each_other(new_page) -> None:  # type: ignore[no-untyped-def]
    host, guest = create_party_room(new_page, start=False)
    link = host.url
    for page in (host, guest):
        page.goto(f"{link}?blind=1")
        page.wait_for_function("() => window.__room && window.__room.state")
        expect(page.locator("#board-wrap")).to_be_hidden()  # the board in words in its place
    host.get_by_role("button", name="Start").click()
    host.wait_for_function(PLAYING)
    guest.wait_for_function(PLAYING)
    expect(heard(host)).to_contain_text("You play red. Your turn.")

    typed(host, "a1")
    expect(heard(guest)).to_contain_text("Red, a1, level 1.")
    expect(heard(guest)).to_contain_text("Your turn.")
    typed(guest, "A1")
    expect(heard(host)).to_contain_text("Yellow, a1, level 2.")
    typed(host, "play a1")
    wait_ply(guest, 3)
    guest.get_by_role("button", name="Play a1, level 4").click()  # from the list of legal pegs
    expect(heard(host)).to_contain_text("Yellow, a1, level 4.")
    expect(host.get_by_role("button", name="Play a1, level 4")).to_have_count(0)

    typed(host, "a1")
    expect(heard(host)).to_contain_text("Peg a1 is full: it already holds 4 beads.")
    typed(host, "e5")
    expect(heard(host)).to_contain_text("Not a peg or a command: e5. Type h for help.")
    typed(host, "b a1")
    expect(heard(host)).to_contain_text("a1: level 1 red, level 2 yellow, level 3 red, level 4 yellow; full.")
    typed(guest, "b2")
    expect(heard(guest)).to_contain_text("It is not your turn yet.")
    assert host.evaluate("() => window.__room.state.game.ply") == 4
    assert host.js_errors == [] and guest.js_errors == []
