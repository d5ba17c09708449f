"""The site's own CPU as an engine of the line protocol (:mod:`botclient.engines`):
``python -m botclient.cpu_engine --level 5`` plays as Master. Standard library and the engine only.

It thinks for the level's own time, or less when ``go`` gives less.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

from games.engine.cpu import choose_move, default_budget_ms


def serve(level: int, lines: TextIO, out: TextIO) -> None:
    """Answer ``position``/``go`` with ``bestmove`` until ``quit`` or the end of input."""
    moves: list[str] = []
    for line in lines:
        words = line.split()
        if not words:
            continue
        if words[0] == "quit":
            return
        if words[0] == "position":
            moves = words[1:]
        elif words[0] == "go":
            budget = default_budget_ms(level)
            if len(words) > 1 and words[1].isdigit():
                budget = min(budget, int(words[1]))
            out.write(f"bestmove {choose_move(' '.join(moves), level, budget_ms=budget)}\n")
            out.flush()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--level", type=int, choices=range(1, 6), default=5, help="1 Beginner .. 5 Master")
    args = parser.parse_args(argv)
    serve(args.level, sys.stdin, sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
