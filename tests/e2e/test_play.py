"""Playing in a real browser: party rooms, the CPU, full pegs, reloads and the keyboard."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.playkit import (
    GAME_OVER,
    MY_TURN,
    create_party_room,
    create_room_with_seat,
    drop,
    expected_step,
    peg_button,
    ply,
    start_cpu_game,
    state,
    wait_my_turn,
    wait_ply,
)

pytestmark = pytest.mark.browser

# ---- tests ----------------------------------------------------------------------------------------


@pytest.mark.webgl
def test_two_people_play_a_full_game_to_a_win(new_page, artifacts) -> None:  # type: ignore[no-untyped-def]
    # Devices that want motion (the other browser tests' ask for less): each bead falls onto its peg. Bob's
    # page has the top view alone (a second 3D board falling in software cost about 4 s of CPU): Ann's 3D
    # board is the one tapped and drawn.
    host, guest = create_party_room(new_page, reduced_motion="no-preference", guest_options={"webgl": False})
    expect(host.locator("#turn")).to_contain_text("Your turn")
    expect(guest.locator("#turn")).to_contain_text("Ann")

    # Red (Ann, seat 1) builds a1-b1-c1-d1 on the 3D board; Yellow (Bob) answers on row 2 on the top view.
    for red, yellow in [("a1", "a2"), ("b1", "b2"), ("c1", "c2")]:
        drop(host, red, via="3d")
        drop(guest, yellow)
    host.locator("#board-wrap").screenshot(path=str(artifacts / "party-midgame.png"))
    drop(host, "d1", via="3d")

    host.wait_for_function(GAME_OVER)
    guest.wait_for_function(GAME_OVER)
    expect(host.locator("#result")).to_contain_text("You win!")
    expect(guest.locator("#result")).to_contain_text("You lose")
    expect(guest.locator("#result")).to_contain_text("Red wins")
    for page in (host, guest):
        for peg in ("a1", "b1", "c1", "d1"):
            expect(peg_button(page, peg)).to_have_class(re.compile(r"\bwin\b"))
        expect(page.get_by_role("button", name="Play again")).to_be_visible()
    game = state(host)["game"]
    assert game["status"] == "won" and game["winner_seat"] == 1
    assert sorted(c["peg"] for c in game["line"]) == ["a1", "b1", "c1", "d1"]
    assert not host.js_errors and not guest.js_errors


def test_a_full_peg_shows_the_cross_and_the_reason(new_page, seat) -> None:  # type: ignore[no-untyped-def]
    # Di plays from a socket: the test is about Cy's page (the cross on Cy's 3D board).
    host, guest = create_room_with_seat(new_page, seat, "Cy", "Di", webgl=True)
    for _ in range(2):
        drop(host, "b3")
        guest.drop("b3")
    expect(peg_button(host, "b3")).to_have_class(re.compile(r"\bfull\b"))
    wait_my_turn(host)
    peg_button(host, "b3").click()
    expect(host.locator("#board-msg")).to_have_text("Peg b3 is full: it already holds 4 beads.")
    expect(peg_button(host, "b3")).to_have_class(re.compile(r"\bcrossed\b"))
    assert host.evaluate("() => window.__room.board.crossPeg") == "b3"  # and on the 3D board
    # Still the same player's turn, and nothing changed.
    assert ply(host) == 4
    drop(host, "c3")


def test_a_solo_game_against_the_cpu(new_page, artifacts) -> None:  # type: ignore[no-untyped-def]
    page = start_cpu_game(new_page, level="1", width=1280, height=860)
    expect(page.locator("#seats")).to_contain_text("Computer")
    order = ["b2", "c3", "b3", "c2", "a1", "d4", "a4", "d1", "b1", "c4", "a2", "d3", "a3", "d2", "b4", "c1"]
    for move in range(40):
        page.wait_for_function(f"() => ({MY_TURN})() || ({GAME_OVER})()")
        if page.evaluate(GAME_OVER):
            break
        stacks = page.evaluate(
            "() => { const c = {}; for (const m of window.__room.state.game.moves) c[m] = (c[m] || 0) + 1; return c; }"
        )
        peg = next(p for p in order[move % len(order) :] + order if stacks.get(p, 0) < 4)
        drop(page, peg)
        # The CPU answers on its own.
        page.wait_for_function(
            "(n) => { const g = window.__room.state.game; return g.ply > n || g.status !== 'playing'; }",
            arg=2 * move + 1,
        )
        if move == 3 and not page.evaluate(GAME_OVER):
            wait_my_turn(page)
            page.locator("#board-wrap").screenshot(path=str(artifacts / "board-midgame.png"))
            page.screenshot(path=str(artifacts / "room-midgame.png"))
            # Threat hints are offered in games against the CPU.
            page.locator("#show-threats").check()
            assert page.evaluate("() => window.__room.state.game.threats !== null")
            page.locator("#show-threats").uncheck()
    page.wait_for_function(GAME_OVER)
    game = state(page)["game"]
    assert game["ply"] >= 7
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#moves li")).to_have_count(game["ply"])
    assert not page.js_errors


def test_a_reload_mid_game_returns_to_the_seat(new_page) -> None:  # type: ignore[no-untyped-def]
    page = start_cpu_game(new_page, level="1")
    drop(page, "a1")
    wait_my_turn(page)
    drop(page, "d4")
    wait_my_turn(page)
    before = state(page)
    page.reload()
    page.wait_for_function("() => { const s = window.__room && window.__room.state; return !!(s && s.game); }")
    after = state(page)
    assert after["you"]["seat"] == before["you"]["seat"] == 1
    assert after["game"]["id"] == before["game"]["id"]
    assert after["game"]["moves"] == before["game"]["moves"]
    expect(page.locator("#seats .tag.you")).to_have_count(1)
    expect(page.locator("#moves li")).to_have_count(len(before["game"]["moves"]))
    expect(page.locator("#turn")).to_contain_text("Your turn")
    drop(page, "b2")


@pytest.mark.webgl
def test_arrow_keys_and_enter_play_a_move_relative_to_the_camera(new_page) -> None:  # type: ignore[no-untyped-def]
    page = start_cpu_game(new_page, level="1")
    wait_my_turn(page)

    # Default camera: right is towards column d, up is towards row 4.
    peg_button(page, "b2").click()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowUp")
    expect(peg_button(page, "c3")).to_have_attribute("aria-pressed", "true")
    expect(peg_button(page, "c3")).to_be_focused()
    page.keyboard.press("Enter")
    wait_ply(page, 1)
    assert state(page)["game"]["moves"][0] == "c3"

    # Turn the board about half way round by dragging; a drag is not a move.
    wait_my_turn(page)
    plies = ply(page)
    # The top view's Enter may have scrolled the page: bring the board back under the mouse.
    page.locator("#board3d canvas").scroll_into_view_if_needed()
    box = page.locator("#board3d canvas").bounding_box()
    if box is not None:
        y = box["y"] + box["height"] * 0.75
        x0 = box["x"] + box["width"] * 0.2
        page.mouse.move(x0, y)
        page.mouse.down()
        page.mouse.move(x0 + box["height"] * 0.62, y, steps=12)
        page.mouse.up()
        page.wait_for_function(
            "() => { const a = window.__room.board.azimuth(); const prev = window.__lastAz;"
            " window.__lastAz = a; return prev !== undefined && Math.abs(a - prev) < 2e-3; }",
            polling=100,
        )
        assert ply(page) == plies
    azimuth = page.evaluate("() => window.__room.board ? window.__room.board.azimuth() : 0")
    if box is not None:
        assert abs(azimuth) > 1.0, azimuth

    peg_button(page, "b2").click()
    expected = expected_step(expected_step("b2", "ArrowRight", azimuth), "ArrowUp", azimuth)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowUp")
    expect(peg_button(page, expected)).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Enter")
    wait_ply(page, plies + 1)
    assert state(page)["game"]["moves"][plies] == expected
