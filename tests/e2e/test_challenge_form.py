"""The challenge form of a player's page in a real browser: its answer comes on the page's player socket
(the challenger's ``challenge_declined`` notification), not from asking the server every second."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

from harness.device import Device

pytestmark = pytest.mark.browser

PASSWORD = "four-in-a-row-3d!"


def test_a_first_visit_challenges_and_hears_the_decline_on_its_player_socket(new_page, server_url):
    name = f"c{uuid.uuid4().hex[:8]}"
    target = Device(server_url)
    target.request("GET", "/api/session")
    made = target.expect("POST", "/api/accounts/register", {"username": name, "password": PASSWORD}, ok=(201,))
    page = new_page()
    page.goto(f"/players/{made['player']['id']}")
    reads: list[str] = []  # the form's reads of its challenge (GET /api/challenge/{id}/show)
    page.on("request", lambda request: request.url.endswith("/show") and reads.append(request.url))
    expect(page.locator("#challenge")).to_be_visible()
    expect(page.locator("#bell")).to_be_hidden()  # a first visit: no player yet, so no player socket
    page.click("#challenge-send")  # the page becomes a guest, then challenges
    expect(page.locator("#challenge-status")).to_contain_text("Waiting for")
    # Becoming a guest started the bell: its player socket is in the guest's group.
    expect(page.locator("#bell[data-live]")).to_be_attached()

    page.wait_for_timeout(3000)  # the challenge waits: the form does not keep asking
    assert len(reads) <= 2, reads  # once when sent, once when its socket was live

    challenge = target.expect("GET", "/api/challenge")["in"][0]
    target.expect("POST", f"/api/challenge/{challenge['id']}/decline", {"reason": "rated"})
    # Within a few seconds: the frame, not the form's safety read (every 15 s).
    expect(page.locator("#challenge-status")).to_have_text(f"{name} plays rated games only.", timeout=3000)
    expect(page.locator("#challenge-send")).to_be_enabled()
    expect(page.locator("#challenge-cancel")).to_be_hidden()
    assert len(reads) <= 2, reads
    assert page.js_errors == []
