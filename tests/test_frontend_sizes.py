"""The frontend's files stay small enough to read whole: none in frontend/static/frontend/ over 400 lines."""

from __future__ import annotations

from pathlib import Path

STATIC = Path(__file__).resolve().parents[1] / "frontend" / "static" / "frontend"
TEXT = {".js", ".css", ".svg", ".html", ".json"}
LIMIT = 400


def test_no_frontend_file_is_over_400_lines() -> None:
    files = [path for path in STATIC.rglob("*") if path.suffix in TEXT]
    assert len(files) > 20  # the modules are where this test looks
    sizes = {str(path.relative_to(STATIC)): len(path.read_text().splitlines()) for path in files}
    assert {name: lines for name, lines in sizes.items() if lines > LIMIT} == {}
