"""The analysis board: from a replay, "Analyse" at move 10, a variation whose verdict differs played to
its win (the result said, nothing left to play), back to the main line, then the game's record downloaded
and pasted into a fresh analysis board (top view, no WebGL)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from tests.e2e.playkit import create_room_with_seat, peg_button, send_drop, state

pytestmark = pytest.mark.browser

# Twelve moves, nobody wins; after ten, Red's a1 (a third bead there) and Yellow's careless d1 leave Red
# a win at once on a1.
GAME = "a1 b1 a1 b1 c2 c3 d4 d3 c4 b4 a2 a3"


def record_of(url: str) -> str:
    return parse_qs(urlsplit(url).query).get("record", [""])[0]


def test_analyse_a_replay_position_try_a_variation_and_paste_the_downloaded_record(new_page, seat):
    host, guest = create_room_with_seat(new_page, seat)  # Bob plays from a socket: only Ann's pages are the point
    for ply, peg in enumerate(GAME.split()):
        if ply % 2 == 0:
            send_drop(host, peg)  # the game is not the point: its moves as taps send them
        else:
            guest.drop(peg)
    game_id = state(host)["game"]["id"]
    host.goto(f"/games/{game_id}")
    host.locator("#moves li").nth(9).click()
    expect(host.locator("#ply-label")).to_have_text("move 10 of 12")

    with host.expect_download() as download:
        host.get_by_role("link", name="Download").click()
    text = Path(download.value.path()).read_text(encoding="utf-8")
    assert text.startswith('[Red "Ann"]') and "6. a2 a3 *" in text

    host.get_by_role("link", name="Analyse").click()
    host.wait_for_url("**/analysis?**")
    assert record_of(host.url) == " ".join(GAME.split()[:10])
    verdict = host.locator("#verdict")
    expect(verdict).not_to_have_text("The engine is thinking…")
    before = verdict.inner_text()
    assert "wins by force in 1" not in before

    # A variation: Red a1, Yellow d1; now Red has a win at once.
    peg_button(host, "a1").click()
    expect(host.locator("#to-move")).to_contain_text("11 moves played")
    peg_button(host, "d1").click()
    expect(verdict).to_have_text("Red wins by force in 1 (proved), with a1.")
    assert record_of(host.url) == " ".join([*GAME.split()[:10], "a1", "d1"])
    expect(host.locator("#tree .variation .tree-move")).to_have_count(2)
    expect(host.locator("#tree .tree-move").first).to_have_text("1. a1")  # each move numbered, as the replay
    expect(host.locator("#topview .peg.threat-red")).not_to_have_count(0)
    # Only what is proved is listed (the other moves are not searched once one wins at once).
    proved = host.locator("#move-verdicts li")
    expect(proved).to_have_count(1)
    expect(proved.locator("span")).to_have_text("Wins in 1:")
    expect(proved.get_by_role("button")).to_have_text(["a1"])

    # Red plays it: the game is over, its result said, nothing left to play or threaten.
    peg_button(host, "a1").click()
    expect(verdict).to_have_text("Red wins with four in a row.")
    expect(host.locator("#to-move")).to_have_text("Red won · 13 moves played")
    expect(host.locator("#move-verdicts li")).to_have_count(0)
    expect(host.locator("#threats")).to_be_hidden()
    expect(host.locator("#topview .peg.threat-red, #topview .peg.threat-yellow")).to_have_count(0)

    # Back to the main line: the position after move 10, its verdict again.
    host.get_by_role("button", name="Main line").click()
    assert record_of(host.url) == " ".join(GAME.split()[:10])
    expect(verdict).to_have_text(before)

    # A fresh board, the downloaded record pasted in: the whole game, at its end.
    fresh = new_page()
    fresh.goto("/analysis")
    fresh.locator("#paste").fill(text)
    fresh.get_by_role("button", name="Load").click()
    expect(fresh.locator("#tree .tree-move")).to_have_count(12)
    fresh.wait_for_function("(r) => new URL(location.href).searchParams.get('record') === r", arg=GAME)
    expect(fresh.locator("#verdict")).not_to_have_text("The engine is thinking…")
    assert host.js_errors == [] and fresh.js_errors == []  # type: ignore[attr-defined]
