"""``python -m games.engine.analyse``: a game's analysis as JSON on the command line."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TextIO

from games.engine.analyse.game import analyse_game
from games.engine.analyse.proving import DEFAULT_NODE_BUDGET, DEFAULT_TIME_BUDGET_S
from games.engine.errors import EngineError


def main(argv: Sequence[str] | None = None, *, stdout: TextIO | None = None) -> int:
    """``python -m games.engine.analyse "a1 b2 ..."``: print the analysis as JSON.

    Returns the exit status: 0, or 2 when the record breaks a rule (the error goes out as JSON too).
    """
    parser = argparse.ArgumentParser(
        prog="python -m games.engine.analyse",
        description="Analyse a 3D Four in a Row game and print the analysis as JSON (docs/analysis.md).",
    )
    parser.add_argument("record", nargs="*", help='the moves, e.g. "a1 b2 c3" (Red first); arguments are joined')
    parser.add_argument("--nodes", type=int, default=DEFAULT_NODE_BUDGET, help="optional proof nodes per position")
    parser.add_argument(
        "--seconds", type=float, default=DEFAULT_TIME_BUDGET_S, help="wall-clock budget of the optional proofs"
    )
    parser.add_argument("--indent", type=int, default=None, help="pretty-print with this indent")
    args = parser.parse_args(argv)
    sink = sys.stdout if stdout is None else stdout
    record = " ".join(args.record)
    try:
        analysis = analyse_game(record, node_budget=args.nodes, time_budget_s=args.seconds)
    except EngineError as error:
        sink.write(json.dumps({"error": {"code": error.code, "ply": error.ply, "message": error.message}}) + "\n")
        return 2
    sink.write(json.dumps(analysis.to_json(), indent=args.indent) + "\n")
    return 0

