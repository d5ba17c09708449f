"""Benchmark the arcade's engine: slides, whole moves (slide, spawn, status) and replays, per mode.

Run: ``.venv/bin/python scripts/bench_arcade.py [--repeats N] [--seconds S]`` (``make bench-arcade-engine``).
Each figure is the median of N repetitions of about S seconds each. The boards are the positions of random
runs (seeded), so the slides see the mix of tiles a played run has; the moves draw their spawns from a
seeded ``random.Random`` (its cost is included); a replay is a whole record through the engine, what the
server does once when a run closes.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_engine import median_rate

from arcade.engine import (
    MODES,
    Mode,
    MoveStep,
    Record,
    RunState,
    Shape,
    Spawn,
    Status,
    play,
    replay,
    slide,
    start_run,
)


def random_runs(mode: Mode, *, count: int, seed: int) -> tuple[list[RunState], list[Record]]:
    """``count`` random runs of ``mode`` played to their end: every position they passed, and their records."""
    rng = random.Random(seed)
    states, records = [], []
    for _ in range(count):
        state = start_run(mode=mode, rng=rng)
        opening = tuple(Spawn(cell=cell, value=value) for cell, value in enumerate(state.board) if value)
        steps = []
        while state.status is Status.PLAYING:
            direction = rng.choice(mode.shape.directions)
            done = play(state, direction, rng=rng)
            if done.moved:
                steps.append(MoveStep(direction=direction, spawned=done.spawned))
                states.append(state)
            state = done.state
        records.append(Record(mode=mode, opening=opening, steps=tuple(steps)))
    return states, records


def slides(shape: Shape, boards: list[tuple[int, ...]]) -> int:
    """Slide every board every way; returns the number of slides."""
    for board in boards:
        for direction in shape.directions:
            slide(board, shape=shape, direction=direction)
    return len(boards) * len(shape.directions)


def plays(shape: Shape, states: list[RunState], rng: random.Random) -> int:
    """Play a random direction from every position (a move that moves nothing included)."""
    for state in states:
        play(state, rng.choice(shape.directions), rng=rng)
    return len(states)


def replays(records: list[Record], moves: int) -> int:
    """Replay every record; returns their moves."""
    for record in records:
        replay(record)
    return moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeats", type=int, default=5, help="repetitions per figure (median reported)")
    parser.add_argument("--seconds", type=float, default=0.5, help="duration of one repetition")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()} ({platform.system()})")
    print(f"{args.repeats} repetitions of ~{args.seconds:g} s each; median (min..max)")
    for mode in MODES.values():
        states, records = random_runs(mode, count=20, seed=7)
        shape, boards = mode.shape, [state.board for state in states]
        rng = random.Random(11)
        moves = sum(len(record.steps) for record in records)

        benchmarks: tuple[tuple[str, str, Callable[[], int]], ...] = (
            ("slides", "slides/s", partial(slides, shape, boards)),
            ("moves (slide, spawn, status)", "moves/s", partial(plays, shape, states, rng)),
            ("replays", "moves/s", partial(replays, records, moves)),
        )
        for label, unit, work in benchmarks:
            median, rates = median_rate(work, args.repeats, args.seconds)
            figure = f"{median:>10,.0f} {unit}  ({min(rates):,.0f}..{max(rates):,.0f})"
            print(f"{mode.id:<11} {label:<29} {figure}")


if __name__ == "__main__":
    main()
