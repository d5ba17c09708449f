"""axe-core in the browser tests: every page is checked against the WCAG 2.1 A and AA rules
(tests/e2e/test_pages.py walks them all; the arcade's 3D page is checked with its WebGL view in
tests/e2e/test_arcade_cube.py). docs/accessibility.md says what is checked and how.

axe-core is the pinned npm dev dependency (frontend/package.json), injected from node_modules (the
``axe_source`` fixture, tests/e2e/conftest.py, skips or fails without it).
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

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


def violations(page: Page, axe: Path) -> list[str]:
    """axe's WCAG 2.1 A/AA violations on the page as it is now in the light theme, then its contrast
    violations in the dark one (``<html data-theme>``, as prefs.js sets it), one readable line per element.
    The theme is left dark."""
    if not page.evaluate("() => typeof window.axe === 'object'"):  # once a document
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
