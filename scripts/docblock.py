"""Writing a benchmark's figures into a Markdown file between its own markers (the rest is kept)."""

from __future__ import annotations

from pathlib import Path


def write_between_markers(text: str, path: Path, *, begin: str, end: str) -> None:
    """Put ``text`` between the markers ``begin`` and ``end`` in ``path`` (appended with them if missing)."""
    old = path.read_text() if path.exists() else ""
    block = f"{begin}\n{text}\n{end}"
    if begin in old and end in old:
        new = old.split(begin)[0] + block + old.split(end, 1)[1]
    else:
        new = old.rstrip() + "\n\n" + block + "\n"
    path.write_text(new)
