"""The bell and the inbox in a real browser: a challenge that arrives while its target is on the puzzle page
is counted by the bell and shown with Accept, which takes the target into the room with the game started."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

from harness.device import Device
from tests.e2e.playkit import state

pytestmark = pytest.mark.browser

PASSWORD = "four-in-a-row-3d!"

REGISTER = """async ([username, password]) => {
  await fetch("/api/session");
  const csrf = document.cookie.split("; ").find((c) => c.startsWith("csrftoken=")).split("=")[1];
  const made = await fetch("/api/accounts/register", {method: "POST", body: JSON.stringify({username, password}),
    headers: {"Content-Type": "application/json", "X-CSRFToken": csrf}});
  return made.status;
}"""


def test_a_challenge_on_the_puzzle_page_rings_the_bell_and_accept_goes_to_the_room(new_page, server_url):
    name = f"b{uuid.uuid4().hex[:8]}"
    page = new_page()
    page.goto("/ratings")
    assert page.evaluate(REGISTER, [name, PASSWORD]) == 201
    page.goto("/puzzles")
    expect(page.locator("#bell")).to_be_visible()
    expect(page.locator("#bell-count")).to_be_hidden()
    expect(page.locator("#bell[data-live]")).to_be_attached()  # the page's player socket is in the group

    challenger = Device(server_url)
    challenger.request("GET", "/api/session")
    challenger.expect("POST", "/api/accounts/register", {"username": f"a{name}", "password": PASSWORD}, ok=(201,))
    challenger.expect("POST", f"/api/challenge/{name}", {"turn_seconds": 60, "colour": "red"}, ok=(201,))

    expect(page.locator("#bell-count")).to_have_text("1")
    card = page.locator("#inbox .inbox-card")
    expect(card).to_contain_text(f"a{name}")
    expect(card).to_contain_text("60 s a move · casual · you play yellow")
    card.get_by_role("button", name="Accept").click()
    page.wait_for_url("**/r/*")
    page.wait_for_function("() => window.__room && window.__room.state && window.__room.state.game")
    game = state(page)["game"]
    assert game["status"] == "playing" and game["moves"] == []
    assert {seat["player"]["name"] for seat in state(page)["seats"]} == {name, f"a{name}"}
    assert page.js_errors == []
