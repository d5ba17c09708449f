"""The puzzle trainer in a real browser: solve a win in 3 on the page, fail another, see the rating move;
the phone layout keeps the board and the moves usable."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.engine import Position
from games.engine.puzzle import keeps_win, winning_line
from puzzles.pool import read_pool

pytestmark = pytest.mark.browser

WINS_IN_3 = sorted((e for e in read_pool() if e.plies == 3), key=lambda e: e.id)


def tap(page: Page, peg: str) -> None:
    """Choose a peg on the top view, then play it with the button (as a phone user would)."""
    page.locator(f"#topview button[data-peg='{peg}']").click()
    page.locator("#choose").click()


@pytest.mark.webgl  # the phone layout as it is with the 3D board
def test_solve_a_win_in_3_then_fail_one_and_see_the_rating_change(new_page, artifacts) -> None:  # type: ignore[no-untyped-def]
    page = new_page(width=390, height=844, is_mobile=True, has_touch=True)  # a phone
    solved, failed = WINS_IN_3[0], WINS_IN_3[1]

    page.goto(f"/puzzles/{solved.id}")
    colour = "Red" if len(solved.record.split()) % 2 == 0 else "Yellow"
    expect(page.locator("#task")).to_have_text(f"{colour} to play and win in 3")
    first = winning_line(Position.from_record(solved.record), plies=3)[0]
    tap(page, first.value)
    page.wait_for_function("() => window.__puzzle.line.length === 2 && !window.__puzzle.busy")
    expect(page.locator("#moves li")).to_have_count(2)
    # The reply is the server's (the longest defence); the winning move may depend on it.
    reply = page.evaluate("() => window.__puzzle.line[1]")
    position = Position.from_record(f"{solved.record} {first} {reply}")
    second = next(p for p in position.legal_pegs() if position.play(p).outcome is not None)
    tap(page, second.value)
    expect(page.locator("#verdict")).to_contain_text("Solved!")
    expect(page.locator("#rating-change")).to_have_text(re.compile(r"^\+\d+$"))
    up = page.locator("#my-puzzle-rating").inner_text()
    page.screenshot(path=str(artifacts / "puzzle-solved-phone.png"), full_page=True)

    page.goto(f"/puzzles/{failed.id}")
    # The puzzle loaded (its task shown) before a peg is chosen: a peg chosen before it is not kept.
    colour = "Red" if len(failed.record.split()) % 2 == 0 else "Yellow"
    expect(page.locator("#task")).to_have_text(f"{colour} to play and win in 3")
    start = Position.from_record(failed.record)
    wrong = next(p for p in start.legal_pegs() if not keeps_win(start, p, within=9))
    tap(page, wrong.value)
    expect(page.locator("#verdict")).to_contain_text("Not the winning move")
    expect(page.locator("#rating-change")).to_have_text(re.compile("^\u2212\\d+$"))
    assert page.locator("#my-puzzle-rating").inner_text() != up
    page.locator("#show-solution").click()
    expect(page.locator("#verdict")).to_contain_text("Winning line:")
    assert page.js_errors == []
    # The next puzzle is one this player has not tried.
    page.locator("#next-puzzle").click()
    page.wait_for_function(
        "(seen) => window.__puzzle.puzzle && !seen.includes(window.__puzzle.puzzle.id)", arg=[solved.id, failed.id]
    )
    # The home page shows the daily puzzle, the one GET /api/puzzles/daily names, with a link to solve it.
    daily = page.request.get("/api/puzzles/daily").json()
    page.goto("/")
    expect(page.locator("#daily-task")).to_have_text(re.compile(r"^(Red|Yellow) to play and win in [357]$"))
    expect(page.locator("#daily-link")).to_have_attribute("href", f"/puzzles/{daily['id']}")
