"""Room chat in a real browser: two players and a spectator talk, before, during and after a game."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.playkit import GAME_OVER, create_party_room, create_room

pytestmark = pytest.mark.browser

SCRIPT = "<script>window.__pwned = 1</script><b>bold?</b> https://example.com"


def log(page: Page, chat: str):  # type: ignore[no-untyped-def]
    return page.locator(f'.chat-box[data-chat="{chat}"] .chat-log')


def message(page: Page, chat: str, text: str):  # type: ignore[no-untyped-def]
    return log(page, chat).locator(".chat-text").filter(has_text=text)


def write(page: Page, text: str) -> None:
    page.locator("#chat-text").fill(text)
    page.locator("#chat-text").press("Enter")


def knows(page: Page, text: str) -> bool:
    """Whether the page was ever sent a message with this text (shown or not)."""
    return bool(page.evaluate("(t) => [...window.__room.chat.messages.values()].some((m) => m.text === t)", text))


def test_players_and_a_spectator_talk_around_a_game(new_page, artifacts) -> None:  # type: ignore[no-untyped-def]
    host, guest = create_party_room(new_page, "Ann", "Bob", start=False)
    watcher = new_page()
    watcher.goto(host.url)
    watcher.wait_for_function("() => window.__room && window.__room.state")
    # A spectator without a name picks one in the chat card to write.
    watcher.locator("#chat-name-input").fill("Cy")
    watcher.get_by_role("button", name="Chat", exact=True).click()
    watcher.wait_for_function("() => !!window.__room.state.you.player")
    expect(watcher.locator("#chat-to")).to_have_text("To: spectators' chat")
    expect(host.locator("#chat-to")).to_have_text("To: players' chat")
    # The count comes in a spectators frame (not a whole room), which the pages apply.
    for page in (host, guest, watcher):
        expect(page.locator("#spectators")).to_have_text("1 watching")

    # Before the game: everyone reads both chats.
    write(host, "Hi all")
    guest.get_by_role("button", name="Good luck").click()
    write(watcher, "Hello players")
    for page in (host, guest, watcher):
        expect(message(page, "players", "Hi all")).to_have_count(1)
        expect(message(page, "players", "Good luck")).to_have_count(1)
        expect(message(page, "spectators", "Hello players")).to_have_count(1)

    host.get_by_role("button", name="Start").click()
    for page in (host, guest):
        page.wait_for_function("() => { const g = window.__room.state.game; return !!g && g.status === 'playing'; }")

    # During the game the seated do not see the spectators' chat, and are not even sent it.
    write(watcher, "Ann, play c3!")
    write(watcher, SCRIPT)
    expect(message(watcher, "spectators", "Ann, play c3!")).to_have_count(1)
    expect(message(watcher, "spectators", "<script>")).to_have_text(SCRIPT)  # shown as text, not run
    expect(log(watcher, "spectators").locator("b, script, a")).to_have_count(0)
    assert watcher.evaluate("() => window.__pwned") is None
    write(guest, "thinking")
    for page in (host, guest):
        expect(message(page, "players", "thinking")).to_have_count(1)
        expect(page.locator('.chat-box[data-chat="spectators"] .chat-note')).to_contain_text("Hidden while you play")
        expect(log(page, "spectators")).to_be_hidden()
        assert not knows(page, "Ann, play c3!") and not knows(page, SCRIPT)

    # After the game they do, once each, and a script is still text.
    host.get_by_role("button", name="Resign").click()
    host.get_by_role("button", name="Tap again to resign").click()
    for page in (host, guest):
        page.wait_for_function(GAME_OVER)
        expect(message(page, "spectators", "Ann, play c3!")).to_have_count(1)
        expect(message(page, "spectators", "<script>")).to_have_text(SCRIPT)
        expect(log(page, "spectators").locator("b, script, a")).to_have_count(0)
        assert page.evaluate("() => window.__pwned") is None

    # A reload shows the history once.
    guest.reload()
    guest.wait_for_function("() => window.__room && window.__room.state && window.__room.state.game")
    for chat, text in (("players", "Hi all"), ("players", "Good luck"), ("players", "thinking"),
                       ("spectators", "Hello players"), ("spectators", "Ann, play c3!")):
        expect(message(guest, chat, text)).to_have_count(1)
    expect(log(guest, "players").locator(".chat-msg")).to_have_count(3)
    expect(log(guest, "spectators").locator(".chat-msg")).to_have_count(3)
    guest.locator("#chat").screenshot(path=str(artifacts / "chat.png"))

    # Ann mutes Cy on her device: Cy's messages are hidden, with a count, until she unmutes.
    log(host, "spectators").locator(".chat-msg").filter(has_text="Hello players").get_by_role(
        "button", name="Mute Cy on this device").click()
    expect(log(host, "spectators").locator(".chat-msg")).to_have_count(0)
    expect(host.locator("#chat-muted")).to_contain_text("Cy · 3 hidden")
    host.screenshot(path=str(artifacts / "chat-muted.png"), full_page=True)
    expect(message(guest, "spectators", "Hello players")).to_have_count(1)  # Bob's page is his own
    host.get_by_role("button", name="Unmute Cy").click()
    expect(log(host, "spectators").locator(".chat-msg")).to_have_count(3)
    for page in (host, guest, watcher):
        assert not page.js_errors, page.js_errors


def test_a_refused_message_is_explained_in_the_chat(new_page) -> None:  # type: ignore[no-untyped-def]
    host, _ = create_room(new_page, "Di")  # the host's seat: the players' chat (nobody else is needed)
    expect(host.locator("#chat-to")).to_have_text("To: players' chat")
    for i in range(5):
        write(host, f"message {i}")
        expect(message(host, "players", f"message {i}")).to_have_count(1)
    write(host, "one too many")
    expect(host.locator("#chat-error")).to_contain_text("Slow down")
    expect(host.locator("#chat-text")).to_have_value("one too many")  # given back to send later
    expect(host.locator("#board-msg")).to_be_hidden()
