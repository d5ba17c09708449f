"""Every page of the site measured with axe-core against the WCAG 2.1 A and AA rules: no violation.

axe-core is the pinned npm dev dependency (frontend/package.json), injected from node_modules; one
browser context walks the pages a guest sees, then becomes an account for the pages that want one.
docs/accessibility.md says what is checked and how to run it alone.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page

from harness.site_pages import POST
from puzzles.pool import read_pool
from tests.e2e.conftest import IN_CI, ROOT
from tests.e2e.playkit import GAME_OVER, drop, settle, start_cpu_game, watch_fetches

pytestmark = pytest.mark.browser

AXE = ROOT / "frontend" / "node_modules" / "axe-core" / "axe.min.js"
WCAG_21_AA = {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}
# The dark theme changes colours only: its run checks the contrast alone (half the check's CPU).
CONTRAST = {"type": "rule", "values": ["color-contrast"]}
RUN_AXE = """async (runOnly) => {
  const result = await axe.run(document, { runOnly, resultTypes: ["violations"] });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => `${n.target.join(" ")}: ${n.failureSummary.replaceAll("\\n", " ")}`),
  }));
}"""


@pytest.fixture(scope="module")
def axe_source() -> Path:
    if not AXE.exists():
        reason = f"{AXE} is missing (make deps, or npm ci in frontend/): skipping the accessibility check"
        if IN_CI:
            pytest.fail(f"CI must run the accessibility check, but {reason}")
        pytest.skip(reason)
    return AXE


def violations(page: Page, axe: Path) -> list[str]:
    """axe's WCAG 2.1 A/AA violations on the page as it is now in the light theme, then its contrast
    violations in the dark one (``<html data-theme>``, as prefs.js sets it), one readable line per element."""
    page.add_script_tag(path=str(axe))
    # Colours are read the moment a theme is set: no transition may be half-way.
    page.add_style_tag(content="*, *::before, *::after { transition: none !important; animation: none !important; }")
    lines = []
    for theme, rules in (("light", WCAG_21_AA), ("dark", CONTRAST)):
        page.evaluate("(t) => { document.documentElement.dataset.theme = t; }", theme)
        for v in page.evaluate(RUN_AXE, rules):
            where = f"{page.url} ({theme}) [{v['impact']}] {v['id']}: {v['help']}"
            lines.append(where + "".join(f"\n    {node}" for node in v["nodes"]))
    return lines


def test_every_page_has_no_wcag_21_aa_violation(new_page, axe_source) -> None:  # type: ignore[no-untyped-def]
    page = start_cpu_game(new_page)  # a guest, in a room with a game against the CPU
    watch_fetches(page)
    found: list[str] = []
    drop(page, "a1")
    found += violations(page, axe_source)
    room_url = page.url
    game_id = page.evaluate("() => window.__room.state.game.id")
    player_id = page.evaluate("() => window.__room.state.you.player")
    page.locator("#resign").click()
    page.locator("#resign").click()
    page.wait_for_function(GAME_OVER)
    found += violations(page, axe_source)  # the room after the game: the result, Play again
    settle(page, f"{room_url}?blind=1", "#blind-board li")  # blind mode's board in words
    found += violations(page, axe_source)

    puzzle = min(read_pool(), key=lambda e: e.id)
    guest_pages = [
        ("/", "#cpu-form"),
        (f"/games/{game_id}", "#moves li"),
        (f"/players/{player_id}", "#recent li, #recent tr"),
        ("/ratings", "#leaderboard"),
        (f"/analysis?record={'+'.join(['a1', 'b2', 'c3'])}", "#to-move:not(:empty)"),
        ("/arenas", "#arenas-page-h"),
        ("/accounts/reset", "main h1"),  # the accounts' pages share one form template
        ("/puzzles", "#task:not(:empty)"),
        (f"/puzzles/{puzzle.id}", "#task:not(:empty)"),
    ]
    for url, ready in guest_pages:
        settle(page, url, ready)
        found += violations(page, axe_source)

    registered = page.evaluate(POST, ["/api/accounts/register", {"username": "axe_ann", "password": "correct horse"}])
    assert registered["status"] == 201, registered
    arena = page.evaluate(POST, ["/api/tournaments", {"name": "Checked", "minutes": 20, "turn_seconds": 30}])
    assert arena["status"] == 201, arena
    account_pages = [
        ("/", "#account-user"),
        ("/challenges", "#challenges-h"),
        ("/my/games", "#my-games-h"),
        ("/accounts/delete", "main h1"),
        (f"/tournaments/{arena['body']['id']}", "#arena-name:not(:empty)"),
    ]
    for url, ready in account_pages:
        settle(page, url, ready)
        found += violations(page, axe_source)

    page.set_viewport_size({"width": 390, "height": 844})  # a phone's width: the layouts that fold
    settle(page, "/", "#cpu-form")
    found += violations(page, axe_source)
    settle(page, f"{room_url}?blind=0", "#moves li")
    found += violations(page, axe_source)

    assert found == [], "axe-core found WCAG 2.1 A/AA violations:\n" + "\n".join(found)
    assert page.js_errors == []
