"""Renders the site icon, static/frontend/favicon.svg, to the bitmap files browsers still ask for.

Writes static/frontend/favicon.ico (16, 32 and 48 px, PNG-compressed entries) and
static/frontend/apple-touch-icon.png (180 px). The SVG is the source: edit it, then run
``.venv/bin/python frontend/build_icons.py`` and commit the results. Drawing uses the same Chromium as the
browser tests (``CHROMIUM_PATH``, default /usr/bin/chromium) through Playwright, so no imaging library is
needed.
"""

from __future__ import annotations

import base64
import os
import struct
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Page

STATIC = Path(__file__).resolve().parent / "static" / "frontend"
ICO_SIZES = (16, 32, 48)
TOUCH_SIZE = 180


def render_png(svg: str, size: int, page: Page, background: str | None = None) -> bytes:
    """The SVG drawn at ``size`` x ``size`` pixels as PNG bytes, on ``background`` or transparent."""
    data = base64.b64encode(svg.encode()).decode()
    page.set_viewport_size({"width": size, "height": size})
    page.set_content(
        f"<html><body style='margin:0;background:{background or 'transparent'}'>"
        f"<img src='data:image/svg+xml;base64,{data}' width='{size}' height='{size}' style='display:block'>"
        f"</body></html>"
    )
    page.wait_for_function("() => document.images[0].complete")
    return page.screenshot(omit_background=background is None, clip={"x": 0, "y": 0, "width": size, "height": size})


def pack_ico(images: dict[int, bytes]) -> bytes:
    """An ICO file holding each PNG as its own entry (the format every browser since 2007 reads)."""
    header = struct.pack("<HHH", 0, 1, len(images))
    directory = b""
    body = b""
    offset = len(header) + 16 * len(images)
    for size, png in sorted(images.items()):
        # Width and height 0 mean 256; colour count 0, reserved 0, 1 plane, 32 bits per pixel.
        directory += struct.pack("<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(png), offset + len(body))
        body += png
    return header + directory + body


def main() -> None:
    from playwright.sync_api import sync_playwright

    svg = (STATIC / "favicon.svg").read_text()
    chromium = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
        try:
            page = browser.new_page()
            icons = {size: render_png(svg, size, page) for size in ICO_SIZES}
            # iOS rounds the corners itself and shows transparency as black: fill the square.
            touch = render_png(svg, TOUCH_SIZE, page, background="#24303f")
        finally:
            browser.close()
    (STATIC / "favicon.ico").write_bytes(pack_ico(icons))
    (STATIC / "apple-touch-icon.png").write_bytes(touch)


if __name__ == "__main__":
    main()
