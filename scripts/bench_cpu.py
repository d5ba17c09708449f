"""Benchmark the CPU player: search speed and depth, and the ladder between levels.

Run: ``.venv/bin/python scripts/bench_cpu.py`` (everything, at the levels' real budgets: about an
hour on one core) or pick parts and scale::

    scripts/bench_cpu.py --speed                      # nodes/s and depth in 1 s at ply 0, 20, 40
    scripts/bench_cpu.py --ladder --games 40 --jobs 2 # each level against the one below, 40 games
    scripts/bench_cpu.py --random --random-games 100  # Master against uniformly random play
    scripts/bench_cpu.py --ladder --scale 0.25        # every budget x 0.25 (say so when reporting)

The speed figures are medians of ``--repeats`` runs of :func:`games.engine.cpu.analyse` (iterative
deepening for the whole second, no solver, no early stop) on fixed positions from a Medium self-play
game. Ladder games are unseeded, as the server plays them; ``--seed`` makes them reproducible
(the search is then also bounded by a node budget, see ``docs/cpu.md``). With ``--jobs`` above the
number of idle cores the wall-clock move times grow; the ``cpu ms`` column stays fair.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import Position
from games.engine.cpu import Level, analyse
from games.engine.match import GameResult, Player, play_match, summarise

# Medium against Medium (seed 108): neither ply 20 nor ply 40 is a forced reply or decided within a second.
GAME = (
    "a4 a1 d1 d4 b3 c2 b2 c3 b3 b3 b2 b2 c3 a1 b1 b4 a4 b1 d1 c2 c2 b1 c3 c4 c1 a1 a1 d2 a2 a2 d4 d2 c4 b4 b4 a3 "
    "c4 a4 a4 a3"
)
SPEED_PLIES = (0, 20, 40)
LADDER = (
    (Level.MASTER, Level.HARD),
    (Level.HARD, Level.MEDIUM),
    (Level.MEDIUM, Level.EASY),
    (Level.EASY, Level.BEGINNER),
)


def speed(repeats: int, budget_ms: int) -> None:
    print(
        f"## Search speed ({budget_ms} ms per search, median of {repeats}; {platform.python_implementation()} "
        f"{platform.python_version()}, {platform.machine()})\n"
    )
    print("| position | nodes/s (wall) | nodes/s (CPU) | depth reached | nodes |")
    print("|---|---:|---:|---:|---:|")
    for ply in SPEED_PLIES:
        position = Position.from_record(" ".join(GAME.split()[:ply]))
        runs = []
        for _ in range(repeats):
            cpu_start = time.process_time()
            decision = analyse(position, budget_ms=budget_ms)
            runs.append((decision, time.process_time() - cpu_start))
        rate = statistics.median(run.nodes / run.ms * 1000 for run, _ in runs)
        cpu_rate = statistics.median(run.nodes / max(cpu, 1e-9) for run, cpu in runs)
        depth = statistics.median(run.depth for run, _ in runs)
        nodes = statistics.median(run.nodes for run, _ in runs)
        print(f"| ply {ply} | {rate:,.0f} | {cpu_rate:,.0f} | {depth:g} | {nodes:,.0f} |")
    print()


def ladder_row(a: Player, b: Player, results: list[GameResult]) -> str:
    rows = {(row.side, row.colour): row for row in summarise(results)}
    total, red, yellow = rows[("A", "all")], rows[("A", "red")], rows[("A", "yellow")]
    b_total = rows[("B", "all")]
    score = (total.wins + total.draws / 2) / total.games
    return (
        f"| {a} | {b} | {total.games} | {total.wins}/{total.draws}/{total.losses} | {score:.0%} "
        f"| {red.wins}/{red.draws}/{red.losses} | {yellow.wins}/{yellow.draws}/{yellow.losses} "
        f"| {total.mean_ms:.0f} / {total.max_ms:.0f} / {total.mean_cpu_ms:.0f} / {total.max_cpu_ms:.0f} "
        f"| {b_total.mean_ms:.0f} / {b_total.max_ms:.0f} / {b_total.mean_cpu_ms:.0f} / {b_total.max_cpu_ms:.0f} |"
    )


def matches(pairs: list[tuple[Player, Player]], games: int, seed: int | None, jobs: int) -> None:
    print("## Ladder (A against B; A's wins/draws/losses; ms per move: wall mean / wall max / CPU mean / CPU max)\n")
    print("| A | B | games | A W/D/L | A score | A as Red | A as Yellow | A ms | B ms |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for a, b in pairs:
        results = play_match(a, b, games, seed=seed, jobs=jobs, progress=sys.stderr)
        print(ladder_row(a, b, results), flush=True)
    print()


def scaled(level: Level, scale: float) -> Player:
    return Player(level, None if scale == 1.0 else max(1, round(level.settings.budget_ms * scale)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--speed", action="store_true", help="nodes/s and depth at ply 0, 20, 40")
    parser.add_argument("--ladder", action="store_true", help="each level against the level below")
    parser.add_argument("--random", action="store_true", help="Master against uniformly random play")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--speed-ms", type=int, default=1000, help="budget per speed search (default 1000)")
    parser.add_argument("--games", type=int, default=40, help="games per ladder pair (default 40)")
    parser.add_argument("--random-games", type=int, default=100, help="games against random play (default 100)")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every level's budget")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--jobs", type=int, default=1, help="games played at once (default 1: fair times)")
    args = parser.parse_args()
    everything = not (args.speed or args.ladder or args.random)
    if args.speed or everything:
        speed(args.repeats, args.speed_ms)
    if args.ladder or everything:
        pairs = [(scaled(a, args.scale), scaled(b, args.scale)) for a, b in LADDER]
        matches(pairs, args.games, args.seed, args.jobs)
    if args.random or everything:
        matches([(scaled(Level.MASTER, args.scale), Player(None))], args.random_games, args.seed, args.jobs)


if __name__ == "__main__":
    main()
