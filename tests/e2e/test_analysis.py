"""The replay page shows a finished game's analysis: marks on the moves, the evaluation strip, and key
moments that jump to the position and show the better move as a ghost bead (3D board and top view)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.playkit import create_party_room, drop, peg_button, state
from tests.games.analysiskit import BLUNDER_GAME

pytestmark = pytest.mark.browser


def test_a_finished_games_replay_shows_the_analysis_and_the_better_move(new_page):
    host, guest = create_party_room(new_page)
    for ply, peg in enumerate(BLUNDER_GAME.split()):
        drop(host if ply % 2 == 0 else guest, peg)
    game = state(host)["game"]
    assert (game["status"], game["winner_seat"]) == ("won", 2)

    host.goto(f"/games/{game['id']}")
    # The server analyses the game in the background; the page polls until it is done.
    expect(host.locator("#moments .moment")).to_have_count(2, timeout=60_000)
    moves = host.locator("#moves li")
    expect(moves).to_have_count(8)
    expect(moves.nth(5).locator(".mark")).to_have_attribute("data-mark", "blunder")
    expect(moves.nth(6).locator(".mark")).to_have_attribute("data-mark", "missed_win")
    expect(moves.nth(5)).to_contain_text("blunder")  # said in words too, not only by a symbol

    # One strip cell per position; after Yellow's blunder Red's win in 1 is a proved result.
    cells = host.locator("#eval-strip .eval-cell")
    expect(cells).to_have_count(9)
    expect(cells.nth(6)).to_have_class("eval-cell forced red-side")
    expect(cells.nth(6)).to_have_attribute(
        "aria-label", "Position after move 6: Red wins by force in 1 (proved), e.g. d1"
    )

    # The missed win: jump to the position before move 7, d1 as a faint red bead on both boards.
    moment = host.locator("#moments .moment-missed_win")
    expect(moment).to_contain_text("Move 7, Red b2: missed a forced win in 1 (d1 first)")
    moment.click()
    expect(host.locator("#ply-label")).to_have_text("move 6 of 8")
    expect(peg_button(host, "d1").locator(".dot.ghost.red")).to_have_count(1)
    expect(host.locator("#better-note")).to_have_text("Better here: Red d1 (the faint bead).")
    ghost = host.evaluate(
        """() => { const b = window.__replay.board; if (!b) return null;
                   return {visible: b.ghost.visible, selected: b.selected, y: b.ghost.position.y}; }"""
    )
    assert ghost is not None, "the 3D board should render here (SwiftShader WebGL)"
    assert ghost["visible"] and ghost["selected"] == "d1"

    # Stepping on clears the suggestion.
    host.get_by_role("button", name="Next move").click()
    expect(peg_button(host, "d1").locator(".dot.ghost")).to_have_count(0)
    expect(host.locator("#better-note")).to_be_hidden()

    # First and last: icons drawn inline (the media symbols are missing from many fonts), named in words.
    for name, ply in (("First move", 0), ("Last move", 8)):
        button = host.get_by_role("button", name=name)
        expect(button).to_have_text("")  # no symbol a font may lack
        icon = button.locator("svg")
        expect(icon).to_be_visible()
        box = icon.bounding_box()
        assert box is not None and box["width"] >= 12 and box["height"] >= 12, box
        button.click()
        expect(host.locator("#ply-label")).to_have_text(f"move {ply} of 8")
    assert host.js_errors == []  # type: ignore[attr-defined]
