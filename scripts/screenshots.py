"""`make screenshots`: every page of harness/site_pages.py at its four viewports, light and dark, in English
and Japanese, written to screenshots/<language>/<page>-<width>x<height>-<theme>.png (ignored by git), to
look at a page as people see it before calling it done. A server of its own (SQLite, in-memory layer, no
WebGL: the board shows its top view); Debian's Chromium (``CHROMIUM_PATH``, /usr/bin/chromium by default).
Japanese needs a CJK font: ``apt-get install -y fonts-noto-cjk``.

    .venv/bin/python scripts/screenshots.py [page names...]   (all pages unless named)
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness.database import sqlite_database
from harness.server import ROOT, LiveServer, server_env
from harness.site_pages import PAGES, THEMES, VIEWPORTS, prepare

OUT = ROOT / "screenshots"
LANGUAGES = ("en", "ja")
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-webgl", "--disable-3d-apis"]
NEXT_FRAME = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
QUIET = "*, *::before, *::after { transition: none !important; animation: none !important; caret-color: transparent; }"


def shoot(language: str, base_url: str, names: list[str]) -> int:
    """Every page (or those named) in ``language``, in a browser of its own; the number of screenshots."""
    pages = [p for p in PAGES if not names or p.name in names]
    count = 0
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        context = browser.new_context(base_url=base_url, locale=language,
                                      extra_http_headers={"Accept-Language": language})
        page = context.new_page()
        fields = prepare(page)
        for site_page in pages:
            page.set_viewport_size({"width": VIEWPORTS[0][0], "height": VIEWPORTS[0][1]})
            page.goto(site_page.path.format(**fields))
            page.wait_for_selector(site_page.ready, state="attached")
            page.wait_for_load_state("load")
            page.add_style_tag(content=QUIET)
            for width, height in VIEWPORTS:  # one load, each size in turn
                page.set_viewport_size({"width": width, "height": height})
                page.evaluate(NEXT_FRAME)
                for theme in THEMES:
                    page.evaluate("(t) => { document.documentElement.dataset.theme = t; }", theme)
                    path = OUT / language / f"{site_page.name}-{width}x{height}-{theme}.png"
                    path.parent.mkdir(parents=True, exist_ok=True)
                    page.screenshot(path=str(path))
                    count += 1
        browser.close()
    return count


def main(names: list[str]) -> int:
    if not Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc").exists():
        print("no CJK font: Japanese shows boxes (apt-get install -y fonts-noto-cjk)", file=sys.stderr)
    started = time.monotonic()
    shutil.rmtree(OUT, ignore_errors=True)
    with tempfile.TemporaryDirectory() as tmp:
        env = server_env(SQLITE_PATH=sqlite_database(Path(tmp)), CPU_WORKERS="0", CPU_TIME_SCALE="0.05",
                         REGISTRATIONS_PER_MINUTE_PER_ADDRESS="1000", REGISTRATIONS_PER_DAY_PER_ADDRESS="1000")
        server = LiveServer(env, log_dir=Path(tmp)).start()
        try:  # a process per language, side by side (each waits on its browser and the server much of the time)
            with ProcessPoolExecutor(len(LANGUAGES)) as pool:
                count = sum(pool.map(shoot, LANGUAGES, [server.http] * len(LANGUAGES), [names] * len(LANGUAGES)))
        finally:
            server.stop()
    print(f"{count} screenshots in {OUT.relative_to(ROOT)}/ in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
