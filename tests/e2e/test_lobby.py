"""The lobby in a real browser: "Play online" pairs two people into one game, a third watches it from the
live games, and a room marked "Open to anyone" is joined from the home page's list."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.playkit import GAME_OVER, drop, state

pytestmark = pytest.mark.browser

ROOM_URL = re.compile(r"/r/([A-Z0-9]+)$")
PLAYING = (
    "() => { const s = window.__room && window.__room.state; return !!(s && s.game && s.game.status === 'playing'); }"
)


def play_online(page: Page, name: str) -> None:
    page.goto("/")
    page.get_by_label("Your name").fill(name)
    page.locator("#online-form").get_by_label("Turn time limit").select_option("60")
    page.get_by_role("button", name="Play online").click()
    expect(page.get_by_text("Looking for an opponent")).to_be_visible()


def test_two_people_play_online_and_a_third_watches_from_the_live_games(new_page, artifacts) -> None:  # type: ignore[no-untyped-def]
    ann, bob = new_page(), new_page()
    play_online(ann, "Ann")
    expect(ann.locator("#seek-clock")).to_have_text(re.compile(r"^0:0\d$"))
    expect(ann.locator("#seek-range")).to_have_text("Ratings 1400\u20131600")
    ann.locator("#seeking").screenshot(path=str(artifacts / "lobby-seeking.png"))
    play_online(bob, "Bob")

    ann.wait_for_url(ROOM_URL)
    bob.wait_for_url(ROOM_URL)
    assert ann.url == bob.url
    code = ROOM_URL.search(ann.url).group(1)  # type: ignore[union-attr]
    for page in (ann, bob):
        page.wait_for_function(PLAYING)
    room = state(ann)
    assert room["rules"]["turn_seconds"] == 60 and room["rules"]["ranked"] is True
    assert {seat["player"]["name"] for seat in room["seats"]} == {"Ann", "Bob"}
    red_seat = room["game"]["red_seat"]
    red, yellow = (ann, bob) if state(ann)["you"]["seat"] == red_seat else (bob, ann)
    red_name = "Ann" if red is ann else "Bob"

    watcher = new_page()
    watcher.goto("/")
    # This game's entry (other tests of this server process may leave Ann-vs-Bob games listed too).
    entry = watcher.locator("#live-games li", has=watcher.locator(f'a[href="/r/{code}"]'))
    watch = entry.get_by_role("link", name=re.compile(r"^Watch (Ann vs Bob|Bob vs Ann)$"))
    expect(watch).to_be_visible()
    expect(entry).to_contain_text(red_name)
    drop(red, "a1")
    expect(entry.locator(".mini-dot.red")).to_have_count(1)  # the preview follows the game
    watcher.locator("#live-games").screenshot(path=str(artifacts / "lobby-live-games.png"))
    watch.click()
    watcher.wait_for_url(re.compile(rf"/r/{code}$"))
    watcher.wait_for_function(PLAYING)
    assert state(watcher)["you"]["seat"] is None  # a spectator

    for red_peg, yellow_peg in [("b1", "a2"), ("c1", "b2")]:
        drop(yellow, yellow_peg)
        drop(red, red_peg)
    drop(yellow, "c2")
    drop(red, "d1")
    for page in (ann, bob, watcher):
        page.wait_for_function(GAME_OVER)
    assert state(watcher)["game"]["winner_seat"] == red_seat
    expect(watcher.locator("#result")).to_contain_text("Red wins")
    assert not ann.js_errors and not bob.js_errors and not watcher.js_errors


def test_cancel_stops_looking(new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    play_online(page, "Cy")
    page.get_by_role("button", name="Cancel").click()
    expect(page.get_by_role("button", name="Play online")).to_be_visible()
    page.wait_for_function("() => !window.__lobby.state.seeking")
    expect(page.get_by_text("Looking for an opponent")).to_be_hidden()
    assert not page.js_errors


def test_a_room_marked_open_is_joined_from_the_home_page(new_page, artifacts) -> None:  # type: ignore[no-untyped-def]
    host = new_page()
    host.goto("/")
    host.get_by_label("Your name").fill("Hana")
    host.get_by_role("button", name="Create a party room").click()
    host.wait_for_url(ROOM_URL)
    host.wait_for_function("() => window.__room && window.__room.state")
    code = ROOM_URL.search(host.url).group(1)  # type: ignore[union-attr]

    guest = new_page()
    guest.goto("/")
    guest.get_by_label("Your name").fill("Gus")
    guest.wait_for_function("() => window.__lobby.state.rooms !== null")
    expect(guest.locator("#open-empty")).to_be_visible()
    host.locator("#rules").get_by_label("Open to anyone").check()
    host.wait_for_function("() => window.__room.state.rules.open === true")

    join = guest.get_by_role("button", name="Join Hana's game")
    expect(join).to_be_visible()
    guest.locator("#open-rooms").screenshot(path=str(artifacts / "lobby-open-games.png"))
    join.click()
    guest.wait_for_url(re.compile(rf"/r/{code}$"))
    guest.wait_for_function("() => window.__room && window.__room.state && window.__room.state.you.seat === 2")
    expect(host.locator("#seats")).to_contain_text("Gus")
    assert state(guest)["seats"][1]["player"]["name"] == "Gus"

    # The room left the list once its seat was taken.
    watcher = new_page()
    watcher.goto("/")
    watcher.wait_for_function("() => window.__lobby && window.__lobby.state.rooms !== null")
    assert watcher.evaluate("() => window.__lobby.state.rooms") == []
    expect(watcher.locator("#open-empty")).to_be_visible()
    assert not host.js_errors and not guest.js_errors and not watcher.js_errors
