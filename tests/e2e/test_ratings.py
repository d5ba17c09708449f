"""Ratings and accounts in a real browser: the stakes before a ranked game, the leaderboard, a player's
page with its rating-history chart and replays, and an account carried to another device."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.playkit import GAME_OVER, create_party_room, drop

pytestmark = pytest.mark.browser

MINUS = "\u2212"  # the stakes line uses a real minus sign


def points(change: float) -> str:
    """A signed whole-point change as the room page writes it: +8, \N{MINUS SIGN}10, ±0."""
    n = round(change)
    return "±0" if n == 0 else f"+{n}" if n > 0 else f"{MINUS}{-n}"


def api(page: Page, url: str) -> dict:
    """A GET with the page's own cookies (the same device)."""
    res = page.request.get(url)
    assert res.ok, f"{url}: {res.status} {res.text()}"
    return res.json()


def seat_rating(page: Page, seat: int) -> dict:
    return page.evaluate("(n) => window.__room.state.seats.find((s) => s.seat === n).rating", seat)


def test_a_ranked_game_shows_its_stakes_then_moves_the_leaderboard_and_player_page(new_page, artifacts) -> None:  # type: ignore[no-untyped-def]
    winner_name, loser_name = f"Win{uuid.uuid4().hex[:5]}", f"Lou{uuid.uuid4().hex[:5]}"
    host, guest = create_party_room(new_page, winner_name, loser_name, start=False)

    # Before the game: both pages show each seat's rating and what a win, a draw and a loss would do.
    host.wait_for_function("() => window.__room.state.seats.every((s) => s.rating && s.rating.if_win !== null)")
    for page in (host, guest):
        page.wait_for_function("() => window.__room.state.seats.every((s) => s.rating && s.rating.if_win !== null)")
        for seat in (1, 2):
            r = seat_rating(page, seat)
            li = page.locator(f"#seats li[data-seat='{seat}']")
            expect(li.locator(".rating")).to_have_text(r["display"])
            expect(li.locator(".stakes")).to_have_text(
                f"win {points(r['if_win'])} · draw {points(r['if_draw'])} · loss {points(r['if_loss'])}"
            )
    assert seat_rating(host, 1)["display"] == "1500?"
    assert MINUS in host.locator("#seats li[data-seat='1'] .stakes").inner_text()
    host.screenshot(path=str(artifacts / "room-stakes.png"))

    # A short rated game: two beads each way, then the guest resigns (a second tap confirms).
    host.get_by_role("button", name="Start").click()
    drop(host, "a1")
    drop(guest, "a2")
    guest.get_by_role("button", name="Resign").click()
    guest.get_by_role("button", name="Tap again to resign").click()
    host.wait_for_function(GAME_OVER)
    guest.wait_for_function(GAME_OVER)
    expect(host.locator("#result")).to_contain_text("You win!")
    winner = host.evaluate("() => window.__room.state.you.player")
    loser = guest.evaluate("() => window.__room.state.you.player")
    # The game is rated after its end committed (games.postgame): the room comes anew with the new ratings.
    expect(host.locator("#result .rating-move")).to_be_visible()
    me = api(host, f"/api/players/{winner}")
    expect(host.locator("#result .rating-move")).to_have_text(f"Rating 1500? → {me['display']}")
    expect(host.locator("#seats li[data-seat='1'] .rating")).to_have_text(me["display"])

    # The leaderboard leaves provisional players out until asked, then lists both with what the API says.
    board = api(host, "/api/ratings?include_provisional=true&limit=100")
    rows = {row["player"]["id"]: row for row in board["results"]}
    assert rows[winner]["display"] == "1662?" and rows[loser]["display"] == "1338?"  # two fresh players
    host.goto("/ratings")
    expect(host.locator("#board-status")).not_to_have_text("Loading…")
    expect(host.locator(f"tr[data-player='{winner}']")).to_have_count(0)
    host.get_by_label("Show provisional players").check()
    for pid, name in ((winner, winner_name), (loser, loser_name)):
        row = host.locator(f"#leaderboard tr[data-player='{pid}']")
        expect(row).to_contain_text(name)
        expect(row.locator(".rating-cell")).to_have_text(rows[pid]["display"])
        expect(row.locator(".rank")).to_have_text(str(rows[pid]["rank"]))
        expect(row.locator("td").last).to_have_text(str(rows[pid]["games"]))
    assert "provisional=1" in host.url
    host.screenshot(path=str(artifacts / "leaderboard.png"), full_page=True)

    # The winner's page: rating, one win, a chart with one point, and the game opening as a replay.
    host.locator(f"#leaderboard tr[data-player='{winner}'] a").click()
    host.wait_for_url(f"**/players/{winner}")
    expect(host.locator("#player-name")).to_have_text(winner_name)
    expect(host.locator("#player-rating")).to_have_text(me["display"])
    expect(host.locator("#rating-note")).to_contain_text("provisional")
    expect(host.locator("#rec-wins")).to_have_text("1")
    expect(host.locator("#rec-losses")).to_have_text("0")
    chart = host.locator("svg.rating-chart")
    expect(chart).to_have_attribute("data-points", "1")
    expect(chart.locator("circle.pt")).to_have_count(1)
    game = me["recent_games"][0]
    row = host.locator(f"#recent tr[data-game='{game['id']}']")
    expect(row).to_contain_text("Win")
    expect(row).to_contain_text(loser_name)
    expect(row.locator(".change")).to_have_text(points(game["rating_change"]))
    host.screenshot(path=str(artifacts / "player.png"), full_page=True)

    row.get_by_role("link", name=re.compile("Replay")).click()
    host.wait_for_url(f"**/games/{game['id']}")
    expect(host.locator("#moves li")).to_have_count(2)
    expect(host.locator("#result")).to_contain_text("resigned")
    expect(host.locator("#seats")).to_contain_text(winner_name)
    assert not host.js_errors and not guest.js_errors


def test_register_log_out_and_log_in_on_another_device(new_page, artifacts) -> None:  # type: ignore[no-untyped-def]
    username = f"reg_{uuid.uuid4().hex[:8]}"
    password = "bead-tower-4471"
    first = new_page()
    first.goto("/")
    first.get_by_label("Your name").fill("Regina")
    first.get_by_role("button", name="Save").click()
    expect(first.locator("#my-rating")).to_contain_text("1500?")
    expect(first.locator("#account")).to_contain_text("Keep your rating on every device: create an account")
    expect(first.locator("#account")).to_contain_text("Already have an account? Log in")
    session = api(first, "/api/session")
    assert session["username"] is None

    register = first.locator("#register-form")
    register.get_by_label("Username").fill(username)
    register.get_by_label("Password").fill(password)
    register.get_by_role("button", name="Create account").click()
    expect(first.locator("#account-user")).to_contain_text(f"Signed in as {username}")
    expect(first.locator("#my-account")).to_have_text(f"Signed in as {username}")
    first.screenshot(path=str(artifacts / "home-signed-in.png"), full_page=True)
    assert api(first, "/api/session")["player"] == session["player"]

    # Logging out (a new CSRF token came with the sign-in) leaves this device without a player.
    first.get_by_role("button", name="Log out").click()
    expect(first.locator("#account-guest")).to_be_visible()
    expect(first.locator("#me")).to_be_hidden()
    assert api(first, "/api/session")["player"] is None

    # Another device: a wrong password shows the server's message, the right one brings the player.
    second = new_page()
    second.goto("/")
    expect(second.locator("#account-guest")).to_be_visible()
    second.screenshot(path=str(artifacts / "home-guest.png"), full_page=True)
    login = second.locator("#login-form")
    login.get_by_label("Username").fill(username)
    login.get_by_label("Password").fill("not-the-password")
    login.get_by_role("button", name="Log in").click()
    expect(second.locator("#account-error")).to_have_text("That username and password do not match an account.")
    login.get_by_label("Password").fill(password)
    login.get_by_role("button", name="Log in").click()
    expect(second.locator("#account-user")).to_contain_text(f"Signed in as {username}")
    expect(second.locator("#account-error")).to_have_text("")
    expect(second.get_by_label("Your name")).to_have_value("Regina")
    expect(second.locator("#my-rating")).to_contain_text(session["rating"]["display"])
    expect(second.locator("#my-rating a").first).to_have_attribute("href", f"/players/{session['player']['id']}")
    assert api(second, "/api/session")["player"] == session["player"]
    assert not first.js_errors and not second.js_errors
