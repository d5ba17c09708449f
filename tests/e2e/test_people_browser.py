"""The header's search box in a real browser: a few letters of a name suggest the account (a bot, unrated,
marked BOT), and choosing it opens its page, with its followers count and Follow for a signed-in account;
there, Report and Block ask in the site's dialogs."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

from harness.device import Device
from tests.e2e.test_bot_challenge import make_bot

pytestmark = pytest.mark.browser


def test_the_search_box_finds_a_player_by_the_start_of_their_name(new_page, server_url):
    bot, _ = make_bot(server_url)  # a bot that never played a rated game
    me = f"fan{uuid.uuid4().hex[:8]}"
    page = new_page()
    page.goto("/ratings")
    page.request.get("/api/session")
    registered = page.request.post("/api/accounts/register", data={"username": me, "password": "four-in-a-row-3d!"},
                                   headers={"X-CSRFToken": next(c["value"] for c in page.context.cookies()
                                                                if c["name"] == "csrftoken")})
    assert registered.status == 201, registered.text()
    page.locator("#player-search-q").fill(bot["name"][:-2].upper())  # any case: names compare casefolded
    hit = page.locator("#player-search-results a", has_text=bot["name"])
    expect(hit).to_be_visible()
    expect(hit.locator(".bot-badge")).to_have_text("BOT")
    page.keyboard.press("Enter")  # the first suggestion
    expect(page).to_have_url(f"{server_url}/players/{bot['id']}")
    expect(page.locator("#follow-counts")).to_have_text("0 followers · 0 following")
    page.get_by_role("button", name="Follow").click()
    expect(page.locator("#follow-counts")).to_have_text("1 follower · 0 following")
    expect(page.get_by_role("button", name="Unfollow")).to_be_visible()
    assert Device(server_url).expect("GET", f"/api/players/{bot['id']}")["followers"] == 1

    # Reporting: a dialog with the four reasons as radio buttons and a few words (no browser prompt).
    page.get_by_role("button", name="Report").click()
    dialog = page.get_by_role("dialog", name=f"Report {bot['name']} to the moderators")
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")  # closes it, sending nothing
    expect(dialog).to_be_hidden()
    page.get_by_role("button", name="Report").click()
    dialog.get_by_role("button", name="Send the report").click()  # no reason chosen yet: the form says so
    expect(dialog).to_be_visible()
    dialog.get_by_label("Spam").check()
    dialog.get_by_label("What happened? (optional)").fill("Sends links in the chat")
    dialog.get_by_role("button", name="Send the report").click()
    expect(page.locator("#social-status")).to_have_text("Thank you: the moderators will look at it.")
    # Blocking asks first, in a dialog: Cancel changes nothing, Block blocks.
    page.get_by_role("button", name="Block", exact=True).click()
    ask = page.get_by_role("dialog", name=f"Block {bot['name']}?")
    ask.get_by_role("button", name="Cancel").click()
    expect(page.get_by_role("button", name="Block", exact=True)).to_be_visible()
    page.get_by_role("button", name="Block", exact=True).click()
    ask.get_by_role("button", name="Block").click()
    expect(page.get_by_role("button", name="Unblock")).to_be_visible()
    assert not page.js_errors  # type: ignore[attr-defined]
