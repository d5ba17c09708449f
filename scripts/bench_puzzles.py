"""Benchmark the puzzles: puzzles mined per minute of CPU by ``manage.py mine_puzzles``'s self-play, the
shipped pool's size by theme, and the CPU cost of judging an attempt (what one ``POST .../move`` computes).

Run: ``.venv/bin/python scripts/bench_puzzles.py [--games N] [--seed S] [--write-docs docs/benchmarks.md]``
(``make bench-puzzles``). Mining is the command's own code (:func:`puzzles.mining.mine`) without the
database (an insert costs nothing next to a proof). The CPU's moves think on a wall-clock budget, so the
games, and the count, vary a little with the machine's load; CPU seconds are what is quoted.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine.position import Position
from games.engine.puzzle import Verdict, judge_attempt, keeps_win, winning_line
from harness.bench.report import write_docs
from puzzles.mining import mine
from puzzles.pool import read_pool

BEGIN_MARK = "<!-- bench-puzzles: begin -->"
END_MARK = "<!-- bench-puzzles: end -->"


def quantile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def bench_mining(games: int, seed: int) -> tuple[int, float, Counter[int]]:
    start = time.process_time()
    found: Counter[int] = Counter()
    for game in mine(games=games, seed=seed):
        found.update(puzzle.plies for puzzle in game.found)
    return sum(found.values()), time.process_time() - start, found


def bench_judging() -> dict[int, tuple[list[float], list[float]]]:
    """CPU ms of judging, by length: the whole engine line (the last request of a solve) and a failing move."""
    costs: dict[int, tuple[list[float], list[float]]] = {}
    for entry in read_pool():
        position = Position.from_record(entry.record)
        line = winning_line(position, plies=entry.plies)
        start = time.process_time()
        assert judge_attempt(position, plies=entry.plies, moves=list(line[::2])).verdict is Verdict.SOLVED
        solved = (time.process_time() - start) * 1000
        wrong = next((p for p in position.legal_pegs() if not keeps_win(position, p, within=entry.plies)), None)
        start = time.process_time()
        if wrong is not None:
            judge_attempt(position, plies=entry.plies, moves=[wrong])
        failed = (time.process_time() - start) * 1000
        costs.setdefault(entry.plies, ([], []))
        costs[entry.plies][0].append(solved)
        costs[entry.plies][1].append(failed)
    return costs


def report(games: int, seed: int) -> str:
    load_before = os.getloadavg()
    found, cpu, by_length = bench_mining(games, seed)
    costs = bench_judging()
    load_after = os.getloadavg()
    pool = Counter(entry.plies for entry in read_pool())
    lines = [
        "## Puzzles (`make bench-puzzles`, i.e. "
        f"`.venv/bin/python scripts/bench_puzzles.py --games {games} --seed {seed}`)",
        "",
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.machine()} {platform.system()}, {os.cpu_count()} cores, "
        f"CPython {platform.python_version()}; load average {load_before[0]:.2f} before, {load_after[0]:.2f} after.",
        "",
        f"**Mining** (`manage.py mine_puzzles`'s self-play, {games} games, seed {seed}): {found} puzzles in "
        f"{cpu:.1f} s of CPU: **{found / cpu * 60:.0f} puzzles per minute of CPU** "
        f"({', '.join(f'win in {n}: {by_length[n]}' for n in sorted(by_length))}).",
        "",
        f"**The shipped pool** (`puzzles/data/pool.jsonl`): {sum(pool.values())} puzzles.",
        "",
        "| theme | puzzles |",
        "|---|---:|",
        *(f"| `win_in_{n}` | {pool[n]} |" for n in sorted(pool)),
        "",
        "**Judging an attempt** (CPU ms per request, over the pool): the last request of a solve (the whole",
        "engine line: every move checked, every longest defence found) and a first move that fails.",
        "",
        "| length | solve: median | p95 | max | fail: median | max |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for n in sorted(costs):
        solved, failed = costs[n]
        lines.append(f"| win in {n} | {statistics.median(solved):.1f} | {quantile(solved, 0.95):.1f} | "
                     f"{max(solved):.1f} | {statistics.median(failed):.1f} | {max(failed):.1f} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--write-docs", type=Path, help="write the figures into this Markdown file")
    args = parser.parse_args()
    text = report(args.games, args.seed)
    print(text)
    if args.write_docs:
        write_docs(text, args.write_docs, begin=BEGIN_MARK, end=END_MARK)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
