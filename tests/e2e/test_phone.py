"""The room page on a phone (390 x 844): what matters now is on the first screen, spectators know they
watch, and the far-side inset leaves the board's pegs in sight."""

from __future__ import annotations

import math

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.e2e.playkit import (
    GAME_OVER,
    MY_TURN,
    create_party_room,
    create_room,
    create_room_with_seat,
    drop,
    peg_button,
)

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844, "is_mobile": True, "has_touch": True}


def assert_on_first_screen(page: Page, target: Locator, what: str) -> None:
    """``target`` is visible and wholly inside the viewport while the page is not scrolled at all."""
    expect(target).to_be_visible()
    assert page.evaluate("() => window.scrollY") == 0, f"the page was scrolled before {what} could be seen"
    box = target.bounding_box()
    view = page.viewport_size
    assert box is not None and view is not None
    inside = (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= view["width"]
        and box["y"] + box["height"] <= view["height"]
    )
    assert inside, f"{what} is at {box}: not inside the {view['width']}x{view['height']} screen without scrolling"


@pytest.mark.webgl
def test_a_visitor_with_the_link_sees_take_a_seat_and_the_host_then_start(new_page, artifacts) -> None:  # type: ignore[no-untyped-def]
    host, link = create_room(new_page, "Ann", **PHONE)
    visitor = new_page(**PHONE)
    visitor.goto(link)
    visitor.wait_for_function("() => window.__room && window.__room.state")
    visitor.screenshot(path=str(artifacts / "phone-visitor.png"))

    assert_on_first_screen(visitor, visitor.locator("#turn"), "the turn banner")
    expect(visitor.locator("#turn")).to_contain_text("You are watching")
    assert_on_first_screen(visitor, visitor.get_by_role("button", name="Take a seat"), "Take a seat")
    assert_on_first_screen(visitor, visitor.locator("#sit-name"), "the name to sit with")
    expect(visitor.locator("#choose")).to_be_hidden()

    # Two name inputs, each labelled for what it does: a screen reader (and a test) finds the right one.
    expect(visitor.get_by_label("Name for your seat")).to_have_id("sit-name")
    expect(visitor.get_by_label("Name for the chat")).to_have_id("chat-name-input")
    visitor.get_by_label("Name for your seat").fill("Bob")
    visitor.get_by_role("button", name="Take a seat").click()
    visitor.wait_for_function("() => window.__room.state.you.seat === 2")
    expect(visitor.locator("#turn")).not_to_contain_text("You are watching")
    expect(visitor.get_by_role("button", name="Take a seat")).to_be_hidden()

    expect(host.locator("#seats")).to_contain_text("Bob")
    assert_on_first_screen(host, host.get_by_role("button", name="Start"), "Start, for the host")


@pytest.mark.webgl
def test_players_on_phones_reach_every_action_without_scrolling(new_page, artifacts) -> None:  # type: ignore[no-untyped-def]
    host, guest = create_party_room(new_page, "Ann", "Bob", **PHONE)
    for page in (host, guest):
        page.wait_for_function("() => { const g = window.__room.state.game; return !!g && g.status === 'playing'; }")
    expect(host.locator("#turn")).to_contain_text("Your turn")
    assert_on_first_screen(host, host.locator("#turn"), "Your turn")
    assert_on_first_screen(host, host.locator("#choose"), "Choose")
    for page in (host, guest):
        assert_on_first_screen(page, page.get_by_role("button", name="Resign"), "Resign")

    # Red (Ann) builds a1-d1 tapping the 3D board, which never scrolls the page.
    for red, yellow in [("a1", "a2"), ("b1", "b2"), ("c1", "c2")]:
        drop(host, red, via="3d")
        drop(guest, yellow, via="3d")
    host.screenshot(path=str(artifacts / "phone-playing.png"))
    drop(host, "d1", via="3d")

    for page in (host, guest):
        page.wait_for_function(GAME_OVER)
        assert_on_first_screen(page, page.locator("#result"), "the result")
        assert_on_first_screen(page, page.get_by_role("button", name="Play again"), "Play again")
    host.screenshot(path=str(artifacts / "phone-game-over.png"))

    host.get_by_role("button", name="Play again").click()
    guest.get_by_role("button", name="Play again").click()
    for page in (host, guest):
        page.wait_for_function(
            "() => { const g = window.__room.state.game; return g.status === 'playing' && g.number === 2; }"
        )
    # Colours alternate: Bob opens the second game, and sees so at once.
    mover = guest if guest.evaluate(MY_TURN) else host
    expect(mover.locator("#turn")).to_contain_text("Your turn")
    for page in (host, guest):
        assert_on_first_screen(page, page.locator("#turn"), "the turn banner of the new game")
    mover.screenshot(path=str(artifacts / "phone-play-again.png"))
    drop(mover, "b2", via="3d")
    assert not host.js_errors and not guest.js_errors


def test_a_spectator_is_told_up_front_and_offered_nothing_they_cannot_use(new_page, seat, artifacts) -> None:  # type: ignore[no-untyped-def]
    host, _ = create_room_with_seat(new_page, seat, "Ann", "Bob")  # Bob plays from a socket: no page of his is read
    watcher = new_page(webgl=True, **PHONE)  # the phone's first screen as it is with the 3D board
    watcher.goto(host.url)
    watcher.wait_for_function("() => { const s = window.__room && window.__room.state; return !!(s && s.game); }")
    watcher.screenshot(path=str(artifacts / "phone-spectator.png"))

    assert_on_first_screen(watcher, watcher.locator("#turn"), "the turn banner")
    expect(watcher.locator("#turn")).to_contain_text("You are watching")
    expect(watcher.locator("#turn")).to_contain_text("Ann")
    # Both seats are taken: nothing to choose, nobody to resign for, no seat to take, no tapping hint.
    for hidden in ("#choose", "#resign", "#sit-box", "#again", "#start"):
        expect(watcher.locator(hidden)).to_be_hidden()
    expect(watcher.get_by_text("tap a peg twice", exact=False)).to_have_count(0)
    expect(peg_button(watcher, "b2")).to_have_attribute("aria-disabled", "true")

    # Tapping a peg anyway (aria-disabled does not stop a finger; Playwright needs force) selects nothing
    # and says why.
    peg_button(watcher, "b2").click(force=True)
    expect(watcher.locator("#board-msg")).to_contain_text("You are watching")
    assert watcher.evaluate("() => window.__room.selected") is None
    expect(peg_button(watcher, "b2")).to_have_attribute("aria-pressed", "false")

    # The players' own pages are unchanged by this: Ann still chooses and drops.
    expect(host.locator("#turn")).not_to_contain_text("You are watching")
    drop(host, "b2")
    watcher.wait_for_function("() => window.__room.state.game.ply === 1")
    assert not watcher.js_errors


def _segment_hits_box(a: dict, b: dict, box: dict, margin: float) -> bool:
    """Whether the screen segment a-b passes through ``box`` grown by ``margin`` (Liang-Barsky clipping)."""
    x0, y0 = box["x"] - margin, box["y"] - margin
    x1, y1 = box["x"] + box["width"] + margin, box["y"] + box["height"] + margin
    dx, dy = b["x"] - a["x"], b["y"] - a["y"]
    lo, hi = 0.0, 1.0
    for p, q in ((-dx, a["x"] - x0), (dx, x1 - a["x"]), (-dy, a["y"] - y0), (dy, y1 - a["y"])):
        if p == 0:
            if q < 0:
                return False
        else:
            t = q / p
            if p < 0:
                lo = max(lo, t)
            else:
                hi = min(hi, t)
    return lo <= hi


# Every way the board can be turned: the camera's azimuth every 15 degrees round the board.
AZIMUTHS = [round(math.radians(degrees), 4) for degrees in range(-180, 180, 15)]
PEGS_UNDER_INSET = """(azimuths) => {
  const board = window.__room.board;
  const under = {};
  for (const azimuth of azimuths) {
    board.turnTo(azimuth);
    under[azimuth] = {inset: board.insetClientRect(), pegs: board.pegScreenPoints()};
  }
  return under;
}"""


def _pegs_under_inset(page: Page, azimuths: list[float]) -> dict[float, list[str]]:
    """For each azimuth (the board turned so, board3d.js's turnTo), the pegs whose stick the far-side
    inset covers; only the azimuths where it covers one."""
    views = page.evaluate(PEGS_UNDER_INSET, azimuths)
    under = {}
    for azimuth, view in views.items():
        assert view["inset"] is not None
        pegs = sorted(peg for peg, p in view["pegs"].items()
                      if _segment_hits_box(p["base"], p["top"], view["inset"], 4))
        if pegs:
            under[float(azimuth)] = pegs
    return under


@pytest.mark.webgl
@pytest.mark.parametrize("size", [PHONE, {"width": 960, "height": 720}], ids=["phone", "desktop"])
def test_the_far_side_inset_leaves_every_peg_in_sight(new_page, artifacts, size) -> None:  # type: ignore[no-untyped-def]
    page, _ = create_room(new_page, "Ann", **size)
    page.wait_for_function("() => !!window.__room.board")
    if size["width"] < 500:
        page.locator("#board-wrap").screenshot(path=str(artifacts / "phone-inset.png"))
    start = page.evaluate("() => window.__room.board.azimuth()")
    assert _pegs_under_inset(page, [start]) == {}
    # Whichever way the board is turned.
    assert _pegs_under_inset(page, AZIMUTHS) == {}
    page.evaluate("(a) => window.__room.board.turnTo(a)", AZIMUTHS[5])
    assert page.evaluate("() => window.__room.board.azimuth()") == pytest.approx(AZIMUTHS[5], abs=1e-6)


@pytest.mark.webgl
@pytest.mark.parametrize("size", [PHONE, {"width": 960, "height": 720}], ids=["phone", "desktop"])
def test_tapping_a_peg_where_it_shows_on_the_3d_board_selects_that_peg(new_page, size) -> None:  # type: ignore[no-untyped-def]
    """Pegs behind others show their upper part; a tap there must pick them, not the peg in front."""
    page, _ = create_room(new_page, "Ann", **size)
    page.wait_for_function("() => !!window.__room.board")
    pegs = page.evaluate("() => window.__room.board.pegScreenPoints()")
    inset = page.evaluate("() => window.__room.board.insetClientRect()")
    wrong = {}
    for peg, p in pegs.items():
        # Just under the tip, along the stick.
        x = p["top"]["x"] + (p["base"]["x"] - p["top"]["x"]) * 0.08
        y = p["top"]["y"] + (p["base"]["y"] - p["top"]["y"]) * 0.08
        assert not _segment_hits_box({"x": x, "y": y}, {"x": x, "y": y}, inset, 0)
        if size.get("has_touch"):
            page.touchscreen.tap(x, y)
        else:
            page.mouse.click(x, y)
        picked = page.evaluate("() => window.__room.selected")
        if picked != peg:
            wrong[peg] = picked
    assert wrong == {}
