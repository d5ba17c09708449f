"""``python -m games.engine``: check game records read from stdin, one JSON object per line out.

Each input line is a game record (peg names separated by whitespace, Red first; an empty line is
the empty board). Each output line is the JSON object built by :func:`describe` (``"ok": true``)
or :func:`describe_error` (``"ok": false``), flushed as soon as it is written.

Extending: add options in :func:`build_parser` and turn them into *annotators* in :func:`main`.
An annotator is called as ``annotator(position, payload)`` for every record that parsed and may
add keys to ``payload`` (e.g. ``"cpu"`` and ``"cpu_ms"`` for a game still being played).

``--cpu LEVEL [--seed N] [--ms BUDGET]`` adds the CPU's move at that level (``"cpu": "<peg>"``) and
the milliseconds it took (``"cpu_ms"``) to every line whose game is still being played.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TextIO

from games.engine.errors import EngineError
from games.engine.position import Position
from games.engine.values import Cell, Colour, Threat

JsonObject = dict[str, object]
Annotator = Callable[[Position, JsonObject], None]


def normalise_record(line: str) -> str:
    """The record as echoed back: surrounding whitespace stripped, inner runs collapsed to one space."""
    return " ".join(line.split())


def _cell_json(cell: Cell) -> JsonObject:
    return {"peg": cell.peg.value, "level": cell.level}


def _threat_json(threat: Threat) -> JsonObject:
    return {"peg": threat.cell.peg.value, "level": threat.cell.level, "playable": threat.playable}


def describe(position: Position, *, record: str | None = None) -> JsonObject:
    """The JSON-ready summary of a position (key order is part of the output format).

    ``record`` defaults to the position's own record. ``legal`` is in peg-name order (a1, a2, ...,
    d4) and empty once the game is over; threats are listed for both colours, sorted by peg then
    level, also once the game is over.
    """
    outcome = position.outcome
    return {
        "record": position.record() if record is None else record,
        "ok": True,
        "ply": position.ply,
        "status": position.status.value,
        "to_move": None if position.to_move is None else position.to_move.value,
        "winner": None if outcome is None or outcome.winner is None else outcome.winner.value,
        "line": None if outcome is None or outcome.line is None else [_cell_json(c) for c in outcome.line],
        "legal": [peg.value for peg in position.legal_pegs()],
        "threats": {colour.value: [_threat_json(t) for t in position.threats(colour)] for colour in Colour},
    }


def describe_error(record: str, error: EngineError) -> JsonObject:
    """The JSON-ready report of a record that breaks a rule."""
    return {
        "record": record,
        "ok": False,
        "error": {"code": error.code, "ply": error.ply, "message": error.message},
    }


def describe_line(line: str, annotators: Sequence[Annotator] = ()) -> JsonObject:
    """Parse one input line and describe it, running ``annotators`` on a successfully parsed position."""
    record = normalise_record(line)
    try:
        position = Position.from_record(record)
    except EngineError as error:
        return describe_error(record, error)
    payload = describe(position, record=record)
    for annotate in annotators:
        annotate(position, payload)
    return payload


def run(lines: Iterable[str], out: TextIO, annotators: Sequence[Annotator] = ()) -> None:
    """Write one JSON line per input line to ``out``, flushing after each."""
    for line in lines:
        out.write(json.dumps(describe_line(line, annotators)) + "\n")
        out.flush()


def cpu_annotator(level: int, *, seed: int | None = None, budget_ms: int | None = None) -> Annotator:
    """An annotator adding the CPU's move (``"cpu"``) and its thinking time (``"cpu_ms"``, whole
    milliseconds) to the payload of a game still being played; finished games are left alone."""
    from games.engine.cpu import Level, think

    cpu_level = Level.from_number(level)

    def annotate(position: Position, payload: JsonObject) -> None:
        if position.to_move is None:
            return
        start = time.perf_counter()
        decision = think(position, cpu_level, budget_ms=budget_ms, seed=seed)
        payload["cpu"] = str(decision.peg)
        payload["cpu_ms"] = round((time.perf_counter() - start) * 1000)

    return annotate


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The command-line parser (add new options here)."""
    parser = argparse.ArgumentParser(
        prog="python -m games.engine",
        description="Read 3D Four in a Row game records on stdin (one per line, pegs separated by "
        "spaces, Red first) and write one JSON object per record on stdout.",
    )
    parser.add_argument(
        "--cpu",
        type=int,
        choices=range(1, 6),
        metavar="LEVEL",
        help='add the move of the CPU at LEVEL (1 Beginner .. 5 Master) as "cpu" and its time as "cpu_ms"',
    )
    parser.add_argument("--seed", type=int, default=None, help="with --cpu: make the CPU's choices reproducible")
    parser.add_argument(
        "--ms", type=_positive, default=None, metavar="BUDGET", help="with --cpu: thinking time per move in ms"
    )
    return parser


def main(argv: Sequence[str] | None = None, *, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Entry point; returns the process exit status (0: every line was answered, even rule errors)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    annotators: list[Annotator] = []
    if args.cpu is not None:
        annotators.append(cpu_annotator(args.cpu, seed=args.seed, budget_ms=args.ms))
    elif args.seed is not None or args.ms is not None:
        parser.error("--seed and --ms only apply with --cpu")
    source = sys.stdin if stdin is None else stdin
    sink = sys.stdout if stdout is None else stdout
    # readline rather than iteration so that an interactive caller gets each answer immediately.
    run(iter(source.readline, ""), sink, annotators)
    return 0
