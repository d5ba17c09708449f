"""Benchmark the rules engine: random playouts and drops with win checks, raw-int and Position APIs.

Run: ``.venv/bin/python scripts/bench_engine.py [--repeats N] [--seconds S]``. Each figure is the
median of N repetitions of about S seconds each. Playouts choose uniformly among legal pegs with a
seeded ``random.Random`` (its cost is included); the drop benchmarks replay pre-generated games so
they time only the engine.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import Peg, Position, drop_bit, is_win_at, legal_pegs_mask

PEGS_BY_INDEX = [Peg.from_index(index) for index in range(16)]


def raw_playout(rng: random.Random) -> int:
    """One random game on raw ints; returns its length in plies."""
    own = other = 0
    draw = rng.getrandbits
    for ply in range(1, 65):
        occupied = own | other
        room = legal_pegs_mask(occupied)
        peg = draw(4)
        while not room >> peg & 1:  # rejection sampling: uniform over the pegs with room
            peg = draw(4)
        landing = drop_bit(occupied, peg)
        own |= landing
        if is_win_at(own, landing.bit_length() - 1):
            return ply
        own, other = other, own
    return 64


def position_playout(rng: random.Random) -> int:
    """One random game through the Position API; returns its length in plies."""
    position = Position.initial()
    while position.outcome is None:
        legal = position.legal_pegs()
        position = position.play(legal[int(rng.random() * len(legal))])
    return position.ply


def random_games(count: int, seed: int) -> list[list[int]]:
    """Peg-index sequences of ``count`` random complete games."""
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        position = Position.initial()
        while position.outcome is None:
            legal = position.legal_pegs()
            position = position.play(legal[int(rng.random() * len(legal))])
        games.append([peg.index for peg in position.moves])
    return games


def raw_drops(games: list[list[int]]) -> int:
    """Replay games with drop_bit + is_win_at; returns the number of drops."""
    drops = 0
    for game in games:
        own = other = 0
        for peg in game:
            landing = drop_bit(own | other, peg)
            own |= landing
            is_win_at(own, landing.bit_length() - 1)
            own, other = other, own
        drops += len(game)
    return drops


def position_drops(games: list[list[Peg]]) -> int:
    """Replay games with Position.play (which checks the win); returns the number of drops."""
    drops = 0
    for game in games:
        position = Position.initial()
        for peg in game:
            position = position.play(peg)
        drops += len(game)
    return drops


def rate(work: Callable[[], int], seconds: float) -> float:
    """Units of ``work`` per second, running it repeatedly for about ``seconds``."""
    done = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        done += work()
        elapsed = time.perf_counter() - start
    return done / elapsed


def median_rate(work: Callable[[], int], repeats: int, seconds: float) -> tuple[float, list[float]]:
    rates = [rate(work, seconds) for _ in range(repeats)]
    return statistics.median(rates), rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="repetitions per figure (median reported)")
    parser.add_argument("--seconds", type=float, default=1.0, help="duration of one repetition")
    args = parser.parse_args()

    games = random_games(200, seed=7)
    peg_games = [[PEGS_BY_INDEX[index] for index in game] for game in games]
    mean_length = statistics.fmean(len(game) for game in games)
    rng = random.Random(11)

    benchmarks: list[tuple[str, str, Callable[[], int]]] = [
        ("random playouts, raw-int API", "playouts/s", lambda: (raw_playout(rng), 1)[1]),
        ("random playouts, Position API", "playouts/s", lambda: (position_playout(rng), 1)[1]),
        ("drops + win checks, raw-int API", "drops/s", lambda: raw_drops(games)),
        ("drops + win checks, Position.play", "drops/s", lambda: position_drops(peg_games)),
    ]
    print(f"Python {platform.python_version()} on {platform.machine()} ({platform.system()})")
    print(f"{args.repeats} repetitions of ~{args.seconds:g} s each; median (min..max)")
    print(f"replayed games: {len(games)} random games, mean length {mean_length:.1f} plies")
    for label, unit, work in benchmarks:
        median, rates = median_rate(work, args.repeats, args.seconds)
        print(f"{label:<36} {median:>12,.0f} {unit}  ({min(rates):,.0f}..{max(rates):,.0f})")


if __name__ == "__main__":
    main()
