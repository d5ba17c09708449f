"""At the board (issue 34), in a real browser: a draw offered and accepted between two people; against the
CPU a premove sent the moment it answers and a takeback that gives the turn back; the dark theme chosen
in the settings of one page reaching the room page open in another (screenshots of both themes)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.playkit import create_party_room, drop, start_cpu_game, state, wait_ply

pytestmark = pytest.mark.browser

COLOURS = """() => { const style = (el) => getComputedStyle(el);
  return {bg: style(document.body).backgroundColor, ink: style(document.body).color,
          card: style(document.querySelector('.card')).backgroundColor,
          cardInk: style(document.querySelector('.card h2')).color}; }"""


def rgb(css: str) -> tuple[float, ...]:
    return tuple(float(x) for x in css[css.index("(") + 1 : css.index(")")].split(",")[:3])


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two CSS rgb() colours."""

    def luminance(css: str) -> float:
        def channel(c: float) -> float:
            c /= 255
            return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

        r, g, b_ = (channel(c) for c in rgb(css))
        return 0.2126 * r + 0.7152 * g + 0.0722 * b_

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def settings(page: Page, label: str) -> None:
    """Opens the header's settings, ticks ``label``, closes the panel."""
    page.locator("#settings-open").click()
    page.get_by_label(label, exact=True).check()
    page.get_by_role("button", name="Done").click()


def test_a_draw_offered_and_accepted_between_two_players(new_page) -> None:  # type: ignore[no-untyped-def]
    host, guest = create_party_room(new_page)
    drop(host, "a1")
    host.get_by_role("button", name="Offer a draw").click()
    expect(guest.locator("#offer-box")).to_contain_text("Ann offers a draw.")
    expect(host.get_by_role("button", name="Draw offered")).to_be_disabled()
    guest.locator("#offer-accept").click()
    for page in (host, guest):
        page.wait_for_function("() => window.__room.state.game.status === 'drawn'")
        assert state(page)["game"]["reason"] == "agreement"
        expect(page.locator("#result")).to_contain_text("Draw by agreement")  # not "the board is full" at move 2
    expect(guest.locator("#offer-box")).to_be_hidden()
    game_id = state(guest)["game"]["id"]
    guest.goto(f"/games/{game_id}")
    expect(guest.locator("#result")).to_contain_text("Draw by agreement")


def test_against_the_cpu_a_premove_goes_at_once_and_a_takeback_gives_the_turn_back(new_page) -> None:  # type: ignore[no-untyped-def]
    page = start_cpu_game(new_page, level="5")  # the Master thinks long enough to premove during it
    settings(page, "Premoves")
    # The CPU may answer within milliseconds: the tap on b1 is made the moment the CPU's turn is drawn
    # (a real click on the top view's button, from the page's own frame handler).
    page.evaluate("""() => { const h = window.__room.socket.h, onRoom = h.onRoom;
      h.onRoom = (frame) => { onRoom(frame);
        if (frame.game && frame.game.to_move_seat === 2 && frame.game.ply === 1 && !window.__premoved) {
          window.__premoved = true; document.querySelector('[aria-label="Peg b1"]').click();
          window.__premoveSeen = window.__room.premove; } }; }""")
    drop(page, "a1")
    page.wait_for_function("() => window.__premoved")
    assert page.evaluate("() => window.__premoveSeen") == "b1"
    wait_ply(page, 3)  # sent the moment the CPU's move came, with no other tap
    assert state(page)["game"]["moves"][2] == "b1"
    page.wait_for_function("() => window.__room.state.game.ply === 4")
    before_b1 = state(page)["game"]["moves"][:2]
    page.get_by_role("button", name="Take back").click()  # back before b1: the CPU's reply goes too
    page.wait_for_function("() => window.__room.state.game.ply === 2")
    assert state(page)["game"]["to_move_seat"] == 1 and state(page)["game"]["moves"] == before_b1
    expect(page.locator("#board-msg")).to_contain_text("2 moves were taken back")


def test_the_dark_theme_chosen_on_one_page_reaches_the_room_page(new_page, artifacts) -> None:  # type: ignore[no-untyped-def]
    room = start_cpu_game(new_page, level="1")
    assert room.evaluate("() => document.documentElement.dataset.theme") == "light"  # the system's (light)
    light = room.evaluate(COLOURS)
    room.screenshot(path=str(artifacts / "room-light.png"))
    home = room.context.new_page()
    home.goto("/")
    settings(home, "Dark")
    home.screenshot(path=str(artifacts / "home-dark.png"), full_page=True)
    room.wait_for_function("() => document.documentElement.dataset.theme === 'dark'")  # live, no reload
    dark = room.evaluate(COLOURS)
    room.screenshot(path=str(artifacts / "room-dark.png"))
    assert light["bg"] != dark["bg"] and light["card"] != dark["card"]
    assert contrast(dark["bg"], light["bg"]) > 4  # the page really went dark
    for colours in (light, dark):
        assert contrast(colours["ink"], colours["bg"]) >= 4.5
        assert contrast(colours["cardInk"], colours["card"]) >= 4.5
    room.reload()  # kept for the player: the next load is dark from the first paint
    assert room.evaluate("() => document.documentElement.dataset.theme") == "dark"
