"""Compile every catalog of the project (``<app>/locale/<lang>/LC_MESSAGES/<domain>.po``) into the
``.mo`` file Django reads beside it, with Babel: pure Python, so a machine without GNU gettext builds
and runs the site. ``make compilemessages`` runs it, and ``make deps`` (so ``make run`` and ``make
test``) whenever a catalog changed; the ``.mo`` files are not committed (docs/translating.md).

A fuzzy entry is left out, as GNU ``msgfmt`` leaves it out (tests/config/test_catalogs.py fails on one).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent


def catalogs(root: Path = ROOT) -> list[Path]:
    """Every ``.po`` of the apps, in a stable order."""
    return sorted(root.glob("*/locale/*/LC_MESSAGES/*.po"))


def compile_catalog(po: Path) -> Path:
    """Write ``po``'s ``.mo`` beside it (atomically: a running server never reads half of one)."""
    with po.open("rb") as source:
        catalog = read_po(source, locale=po.parent.parent.name, abort_invalid=True)
    mo = po.with_suffix(".mo")
    partial = mo.with_suffix(".mo.partial")
    with partial.open("wb") as target:
        write_mo(target, catalog, use_fuzzy=False)
    partial.replace(mo)
    return mo


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quiet", action="store_true", help="say nothing on success")
    args = parser.parse_args(argv)
    found = catalogs()
    for po in found:
        compile_catalog(po)
    if not args.quiet:
        print(f"compiled {len(found)} catalogs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
