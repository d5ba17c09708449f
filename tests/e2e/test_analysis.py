"""The replay page shows a finished game's analysis: marks on the moves, the evaluation strip, and key
moments that jump to the position and show the better move as a ghost bead (3D board and top view);
its first and last buttons, and a slower win among the marks."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.playkit import GAME_OVER, create_room_with_seat, peg_button, send_drop, state
from tests.games.analysiskit import BLUNDER_GAME

pytestmark = pytest.mark.browser

# Yellow's b4 leaves Red a win in 1 (d3); Red's a2 still wins by force, in 7, and Red plays it out.
SLOWER_WIN_GAME = "d2 b3 c1 a4 d1 c4 d4 b4 a2 d3 b2 c2 a1 b1 c3"


def replay_analysed(new_page, seat, record: str, *, winner_seat: int, moments: int, webgl: bool = False):  # type: ignore[no-untyped-def]
    """Two people play ``record`` in a party room, the guest from a socket (only the host's pages are the
    point); the host's page, on the game's replay once analysed (``webgl``: with the 3D board)."""
    host, guest = create_room_with_seat(new_page, seat, webgl=webgl)
    for ply, peg in enumerate(record.split()):  # the game is not the point: its moves sent as the taps send them
        if ply % 2 == 0:
            send_drop(host, peg)
        else:
            guest.drop(peg)
    host.wait_for_function(GAME_OVER)  # the last drop may be the guest's: the host's page hears of it after
    game = state(host)["game"]
    assert (game["status"], game["winner_seat"]) == ("won", winner_seat)
    host.goto(f"/games/{game['id']}")
    # The server analyses the game in the background; the page polls until it is done.
    expect(host.locator("#moments .moment")).to_have_count(moments, timeout=60_000)
    return host


def test_a_finished_games_replay_shows_the_analysis_and_the_better_move(new_page, seat):
    host = replay_analysed(new_page, seat, BLUNDER_GAME, winner_seat=2, moments=2, webgl=True)
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


def test_a_slower_win_is_marked_in_words_counted_and_a_moment_with_the_faster_move(new_page, seat):
    host = replay_analysed(new_page, seat, SLOWER_WIN_GAME, winner_seat=1, moments=2)
    slower = host.locator("#moves li").nth(8)
    expect(slower.locator(".mark")).to_have_attribute("data-mark", "slower_win")
    expect(slower).to_contain_text("slower win")
    expect(host.locator("#analysis-summary")).to_contain_text("Red: 4 best, 0 only moves, 1 slower win, 0 missed wins")
    moment = host.locator("#moments .moment-slower_win")
    expect(moment).to_contain_text("Move 9, Red a2: still wins by force, but in 7 instead of 1 (d3 first)")
    moment.click()
    expect(host.locator("#ply-label")).to_have_text("move 8 of 15")
    expect(host.locator("#better-note")).to_have_text("Better here: Red d3 (the faint bead).")
    assert host.js_errors == []  # type: ignore[attr-defined]
