"""A person challenges a bot from its page and plays it: the bot is ``python -m botclient`` with the built-in
CPU adapter, talking to the live server over HTTP like any engine author's bot."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid

import pytest
from playwright.sync_api import expect

from harness.device import Device
from tests.e2e.conftest import ROOT
from tests.e2e.playkit import GAME_OVER, MY_TURN, drop, state

pytestmark = pytest.mark.browser


def make_bot(server_url: str) -> tuple[dict, str]:
    """A bot made from scratch over HTTP: an account, a token, the upgrade."""
    username = f"bot{uuid.uuid4().hex[:8]}"
    device = Device(server_url)
    device.request("GET", "/api/session")
    player = device.expect("POST", "/api/accounts/register", {"username": username, "password": "four-in-a-row-3d!"},
                           ok=(201,))["player"]
    token = device.expect("POST", "/api/accounts/tokens", {"description": "e2e"}, ok=(201,))["token"]
    upgrade = Device(server_url)
    upgrade.opener.addheaders = [("Authorization", f"Bearer {token}")]
    assert upgrade.request("POST", "/api/bot/account/upgrade")[0] == 200
    return player, token


def test_a_person_challenges_a_bot_from_its_page_and_plays_it(new_page, server_url):
    player, token = make_bot(server_url)
    bot = subprocess.Popen(
        [sys.executable, "-m", "botclient", "--server", server_url, "--token", token, "--cpu", "1", "--games", "1",
         "--max-ms", "100"],
        cwd=ROOT, env={**os.environ, "PYTHONUNBUFFERED": "1"}, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        page = new_page()
        page.goto(f"/players/{player['id']}")
        expect(page.locator("#player-name")).to_have_text(f"BOT {player['name']}")
        expect(page.locator("#challenge")).to_be_visible()
        expect(page.locator("#challenge-no-timer")).to_be_hidden()  # a game with a bot needs a timer
        page.select_option("#challenge-timer", "30")
        page.select_option("#challenge-colour", "red")
        page.click("#challenge-send")
        page.wait_for_url("**/r/*", timeout=30_000)
        page.wait_for_function("() => window.__room && window.__room.state && window.__room.state.game")
        seats = state(page)["seats"]
        assert seats[1]["player"]["title"] == "BOT" and seats[1]["player"]["id"] == player["id"]
        expect(page.get_by_text(f"BOT {player['name']}").first).to_be_visible()
        # Play it to the end: the lowest free peg each turn (the bot answers every move).
        while not page.evaluate(GAME_OVER):
            page.wait_for_function(f"() => ({MY_TURN})() || ({GAME_OVER})()")
            if page.evaluate(GAME_OVER):
                break
            game = state(page)["game"]
            counts = {peg: game["moves"].count(peg) for peg in set(game["moves"])}
            free = next(f"{c}{r}" for r in "1234" for c in "abcd" if counts.get(f"{c}{r}", 0) < 4)
            drop(page, free)
        final = state(page)["game"]
        assert final["status"] in ("won", "drawn") and len(final["moves"]) >= 7
        moves = page.evaluate("() => window.__room.state.game.moves")
        assert moves == final["moves"]
        assert bot.wait(30) == 0
        assert page.js_errors == []
    finally:
        bot.kill()
        print(bot.communicate()[0][-2000:])
