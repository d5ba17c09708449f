"""What the pages say when moderation or the idle cleanup ends a game: a closed room, an abandoned game
in the replay and on the player page, a banned player."""

from __future__ import annotations

import subprocess

import pytest
from playwright.sync_api import expect

from tests.e2e.playkit import drop, start_cpu_game, state, wait_my_turn
from tests.livekit import BIN, ROOT

# On the browser tests' server, whose rooms and players the management commands change from another process
# (on its database: the environment of ``browser_server``). Closing the idle rooms closes the earlier tests' too:
# each worker's tests run one at a time, so none of them is still playing.
pytestmark = pytest.mark.browser


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([str(BIN / "python"), "manage.py", *args], cwd=ROOT, env=env, check=True, timeout=120,
                   capture_output=True)


def test_a_room_closed_mid_game_says_so_and_the_game_shows_as_abandoned(new_page, browser_server) -> None:  # type: ignore[no-untyped-def]
    env = browser_server.env
    page = start_cpu_game(new_page, level="1")
    drop(page, "a1")
    wait_my_turn(page)
    before = state(page)
    manage(env, "close_idle_rooms", "--hours", "0")  # another process: this page hears of it on reconnect
    page.reload()
    expect(page.locator("#turn")).to_contain_text("This room is closed.")
    expect(page.locator("#conn")).to_have_text("This room is closed.")
    expect(page.locator("#result")).to_contain_text("Abandoned")
    expect(page.locator("#result")).to_contain_text("Unrated")
    for button in ("#again", "#stand", "#start", "#sit-box"):
        expect(page.locator(button)).to_be_hidden()  # nothing more can be done in a closed room
    after = state(page)
    assert after["game"]["id"] == before["game"]["id"] and after["game"]["status"] == "abandoned"
    assert after["game"]["moves"] == before["game"]["moves"] and after["closed_at"] is not None

    page.goto(f"/games/{after['game']['id']}")
    expect(page.locator("#result")).to_contain_text("Abandoned: the room was closed after a long time")
    page.goto(f"/players/{after['you']['player']}")
    row = page.locator(f"#recent tr[data-game='{after['game']['id']}']")
    expect(row.locator(".result-badge")).to_have_text("Abandoned")
    assert not page.js_errors


def test_a_banned_player_is_told_and_the_page_stops_reconnecting(new_page, browser_server) -> None:  # type: ignore[no-untyped-def]
    env = browser_server.env
    page = start_cpu_game(new_page, level="1")
    player = state(page)["you"]["player"]
    manage(env, "shell", "-c", "from django.utils import timezone; from players.models import Player; "
           f"from players.services import player_ban; player_ban(player=Player.objects.get(pk='{player}'), "
           "now=timezone.now())")
    page.reload()
    expect(page.locator("#turn")).to_contain_text("This player is banned by a moderator")
    expect(page.locator("#conn")).to_have_text("Banned by a moderator.")
    assert page.evaluate("() => window.__room.socket.closedForGood") is True
    assert not page.js_errors
