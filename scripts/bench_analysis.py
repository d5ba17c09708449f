"""Benchmark the post-game analysis (``games.engine.analyse``) on 40-ply and 64-ply games.

Run: ``.venv/bin/python scripts/bench_analysis.py [--repeats N] [--nodes N] [--seconds S]`` (``make
bench-analysis``). Each game is analysed ``--repeats`` times with ``analyse_game``'s defaults (or the
budgets given) on one core; the medians over games are what docs/benchmarks.md quotes against the
targets (40 plies: 30 s, 64 plies: 60 s). Wall-clock and CPU seconds are both printed: on a shared
machine the wall clock grows with the load (printed before and after), the CPU time much less.

The games are fixed records from seeded CPU self-play (``python -m games.engine.match``): the 40-ply
set is the first 40 moves of five games (Medium vs Medium seed 100, game 0; Master vs Hard seed 200,
games 0-3), the 64-ply set four Medium vs Medium games that filled the board (seeds 100 and 300,
games 1, 3, 20 and 29).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine.analyse import (
    ANALYSIS_VERSION,
    DEFAULT_NODE_BUDGET,
    DEFAULT_TIME_BUDGET_S,
    Analysis,
    analyse_game,
)

LONG_GAMES = (
    "a4 a1 d4 d1 b4 c4 b1 c1 b4 b4 d4 c4 c4 c2 c3 c2 c3 c3 c4 c2 c2 b2 b2 a1 b2 b1 d1 a2 d2 a2 d2 a3 a3 a2 a2 b2 "
    "d2 d2 d1 b1 d4 d4 d3 d3 d3",
    "d4 d1 a4 a1 b1 b4 a1 d1 a4 d4 a4 a4 a1 a1 d1 d1 a3 b1 b1 b1 b4 b3 b4 b4 d4 d4 b2 b2 b2 b2 d2 a3 a2 c2 d2 c2 "
    "d2 d2 c2 c2 a3 a3 c4 c1 c4 c4 c4 d3 a2 a2 a2 c3 d3 d3 d3 c1 c1",
    "a1 d1 a4 d4 d3 a3 d4 d1 a1 a4 a3 a4 d1 d1 a4 a3 a3 d3 d3 d4 d4 d2 c3 c3 c3 c2 c2 a2 b2 b2 c2 b2 c3 b2 c1 d3 "
    "c4 c2 b1 a2 a2 a2 b3 b4 b4 b4 b4 b3 b3 c1 c1 d2 d2 d2",
    "a1 d4 a4 d1 d3 a3 d4 d1 a3 a4 a1 d3 a3 d3 a4 a1 a1 a4 c3 d3 a3 c3 c3 d2 c1 d2 d2 c4 d1 d1 d2 c4 c1 c1 c4 c4 "
    "c1 b2 a2 b2 b3 b4 b2 b2 b1 b3 a2 a2 b1 b3 b1 b1 b3 b4 b4 d4 d4 c3 a2 b4 c2 c2",
    "a4 a1 d4 d1 c1 c4 d4 a4 d1 a1 c4 d4 a1 c4 a1 d4 c4 b3 b3 b3 c3 c3 c3 d3 a3 a3 d3 b2 b4 b2 b2 b1 c3 b4 a4 a4 "
    "b1 b3 d1 d1 b1 b1 b2 a3 a3 b4 b4 a2 a2 a2 d2 d2 d3 d3 a2 d2 d2 c1 c1",
)
GAMES_40 = tuple(" ".join(game.split()[:40]) for game in LONG_GAMES)
GAMES_64 = (
    "d1 a4 d4 a1 d3 d2 a3 a2 d3 d3 d1 d2 d2 c2 b2 c2 c2 c3 a2 c4 c1 c3 c1 c3 c3 a1 c1 c1 d4 b2 b2 a2 a1 a1 a3 c4 "
    "a3 a3 a2 c4 c4 b1 b1 b1 b1 b4 b4 d2 c2 d3 b2 b3 b3 b3 b3 d4 d4 a4 d1 d1 a4 a4 b4 b4",
    "a1 d4 a4 d1 a2 a3 d2 d3 a2 a2 a4 a3 a3 c3 b3 c3 b3 b3 a3 c3 c3 c2 c2 d1 c2 d2 d4 c1 c4 c1 c4 b1 b1 c1 c1 b1 "
    "b2 a1 d1 d1 d3 b3 d3 d4 d4 b1 c2 a2 c4 c4 d2 a1 a1 b2 b2 b2 b4 b4 a4 a4 d3 d2 b4 b4",
    "d4 d1 a4 a1 c4 b4 c1 b1 c4 c4 d4 b4 b4 b2 b3 b2 b3 b3 b4 c2 b2 d2 a2 c2 c2 d2 a2 d2 d2 a2 b2 b3 c2 a2 a1 b1 "
    "d3 a3 a3 a4 b1 a1 a3 a1 a3 c4 d3 d3 b1 d1 d1 d1 c3 c3 c3 d4 d4 c3 d3 c1 c1 c1 a4 a4",
    "d1 a4 d4 a1 d3 d2 a3 a2 d3 d3 d1 d2 d2 b2 c2 b2 c2 c2 d2 b2 b2 b3 b3 a4 b3 a3 a1 b4 b1 b4 b1 c4 c4 b4 b4 c4 "
    "c3 d4 a4 a4 a2 c2 a2 a1 a1 c4 b3 d3 b1 b1 a2 d4 d4 c3 c3 c3 d1 d1 a3 a3 c1 c1 c1 c1",
)
assert all(len(game.split()) == 40 for game in GAMES_40)
assert all(len(game.split()) == 64 for game in GAMES_64)


def load() -> str:
    """The 1, 5 and 15 minute load averages."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def summary(analysis: Analysis) -> str:
    kinds = Counter(entry.eval.kind.value for entry in analysis.plies)
    marks = Counter(entry.mark.value for entry in analysis.plies if entry.mark is not None)
    nodes = sum(entry.eval.nodes for entry in analysis.plies)
    return f"{nodes:>10,} nodes  {dict(kinds)}  marks {dict(marks)}  moments {len(analysis.moments)}"


def bench(label: str, games: tuple[str, ...], repeats: int, nodes: int | None, seconds: float | None) -> None:
    walls: list[float] = []
    cpus: list[float] = []
    print(f"\n{label}: {len(games)} games x {repeats}")
    for number, game in enumerate(games):
        for _ in range(repeats):
            wall, cpu = time.perf_counter(), time.process_time()
            analysis = analyse_game(game, node_budget=nodes, time_budget_s=seconds)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
            print(f"  game {number}: wall {walls[-1]:6.2f} s  cpu {cpus[-1]:6.2f} s  {summary(analysis)}", flush=True)
    print(
        f"  median wall {statistics.median(walls):.2f} s (max {max(walls):.2f}), "
        f"median cpu {statistics.median(cpus):.2f} s (max {max(cpus):.2f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=1, help="analyses of each game")
    parser.add_argument("--nodes", type=int, default=DEFAULT_NODE_BUDGET, help="optional proof nodes per position")
    parser.add_argument("--seconds", type=float, default=DEFAULT_TIME_BUDGET_S, help="time budget of optional proofs")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()} ({platform.system()}), {time.strftime('%F %T')}")
    print(f"analysis version {ANALYSIS_VERSION}; node budget {args.nodes:,}/position; time budget {args.seconds:g} s")
    print(f"load average before: {load()}")
    bench("40-ply games", GAMES_40, args.repeats, args.nodes, args.seconds)
    bench("64-ply games", GAMES_64, args.repeats, args.nodes, args.seconds)
    print(f"\nload average after: {load()}")


if __name__ == "__main__":
    main()
