"""``python -m games.engine.match``: play CPU levels against each other and tabulate the results.

Example: ``python -m games.engine.match --a 5 --b 3 --games 40``. A player is a level ``1``..``5`` or
``random`` (a uniformly random legal move). Colours alternate: side A is Red in even-numbered games
(0, 2, ...), Yellow in odd ones. A progress bar is drawn on stderr while the games run; the table
(wins / draws / losses per side and colour; mean and max milliseconds per move, on the wall clock
and in CPU time) goes to stdout.

With ``--seed`` every game is reproducible (see :mod:`games.engine.cpu.player` for what a seed
fixes); ``--jobs`` plays that many games at once in worker processes. Per-move times are wall-clock
times measured inside the worker, so they are only fair when the machine has a free core per job.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import TextIO

from games.engine.cpu import Level, think
from games.engine.position import Position
from games.engine.values import Colour, Peg

RANDOM = "random"


@dataclass(frozen=True, slots=True)
class Player:
    """One side of a match: a CPU level with an optional time budget, or uniformly random play."""

    level: Level | None
    """None for random play."""
    budget_ms: int | None = None
    """None: the level's default."""

    @classmethod
    def from_spec(cls, spec: str, budget_ms: int | None = None) -> Player:
        """``"1"``..``"5"`` or ``"random"``.

        Raises:
            ValueError: anything else.
        """
        if spec == RANDOM:
            return cls(None)
        try:
            number = int(spec)
        except ValueError:
            raise ValueError(f"a player is a level 1..5 or {RANDOM!r}, not {spec!r}") from None
        return cls(Level.from_number(number), budget_ms)

    def __str__(self) -> str:
        if self.level is None:
            return "random"
        budget = self.level.settings.budget_ms if self.budget_ms is None else self.budget_ms
        return f"{self.level.settings.title} ({int(self.level)}, {budget} ms)"

    def move(self, position: Position, seed: int | None) -> tuple[str, float, float]:
        """``(peg name, wall-clock ms, CPU ms)`` for the player to move."""
        start, cpu_start = time.perf_counter(), time.process_time()
        if self.level is None:
            peg = random.Random(seed).choice(position.legal_pegs())
        else:
            peg = think(position, self.level, budget_ms=self.budget_ms, seed=seed).peg
        return str(peg), (time.perf_counter() - start) * 1000, (time.process_time() - cpu_start) * 1000


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game, seen from side A."""

    index: int
    a_colour: Colour
    winner: str | None
    """``"a"``, ``"b"`` or None for a draw."""
    record: str
    a_ms: list[float] = field(default_factory=list)
    """Wall-clock milliseconds of each of A's moves."""
    b_ms: list[float] = field(default_factory=list)
    a_cpu_ms: list[float] = field(default_factory=list)
    """CPU milliseconds of each of A's moves (what the move cost when other processes compete for the cores)."""
    b_cpu_ms: list[float] = field(default_factory=list)


def game_seed(seed: int | None, index: int, side: int) -> int | None:
    """The seed side ``side`` (0 for A, 1 for B) uses in game ``index`` of a match seeded with ``seed``."""
    return None if seed is None else seed * 100_003 + 2 * index + side


def play_game(a: Player, b: Player, index: int, seed: int | None = None) -> GameResult:
    """Play game ``index`` of a match: A is Red when ``index`` is even."""
    a_colour = Colour.RED if index % 2 == 0 else Colour.YELLOW
    position = Position.initial()
    times: tuple[list[float], list[float]] = ([], [])
    cpu_times: tuple[list[float], list[float]] = ([], [])
    # A CPU keeps its game's seed for every move; a random player draws a fresh one per move.
    rngs = (random.Random(game_seed(seed, index, 0)), random.Random(game_seed(seed, index, 1)))
    while position.to_move is not None:
        side = 0 if position.to_move is a_colour else 1
        player = (a, b)[side]
        move_seed = game_seed(seed, index, side)
        if player.level is None and seed is not None:
            move_seed = rngs[side].getrandbits(32)
        peg, ms, cpu_ms = player.move(position, move_seed)
        times[side].append(ms)
        cpu_times[side].append(cpu_ms)
        position = position.play(Peg.from_name(peg))
    outcome = position.outcome
    winner = None
    if outcome is not None and outcome.winner is not None:
        winner = "a" if outcome.winner is a_colour else "b"
    return GameResult(index, a_colour, winner, position.record(), times[0], times[1], cpu_times[0], cpu_times[1])


def _play_one(args: tuple[Player, Player, int, int | None]) -> GameResult:
    return play_game(*args)


def play_match(
    a: Player, b: Player, games: int, *, seed: int | None = None, jobs: int = 1, progress: TextIO | None = None
) -> list[GameResult]:
    """Play ``games`` games, ``jobs`` at a time, drawing a progress bar on ``progress`` if given."""
    tasks = [(a, b, index, seed) for index in range(games)]
    results: list[GameResult] = []
    bar = _ProgressBar(games, progress)
    for result in _run(tasks, jobs):
        results.append(result)
        bar.update(results)
    bar.close()
    results.sort(key=lambda result: result.index)
    return results


def _run(tasks: list[tuple[Player, Player, int, int | None]], jobs: int) -> Iterator[GameResult]:
    if jobs <= 1:
        yield from map(_play_one, tasks)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(_play_one, tasks)


class _ProgressBar:
    WIDTH = 30

    def __init__(self, total: int, out: TextIO | None) -> None:
        self.total, self.out, self.start = total, out, time.monotonic()
        self.update([])

    def update(self, results: list[GameResult]) -> None:
        if self.out is None:
            return
        done = len(results)
        filled = self.WIDTH * done // max(1, self.total)
        wins = sum(result.winner == "a" for result in results)
        losses = sum(result.winner == "b" for result in results)
        elapsed = time.monotonic() - self.start
        self.out.write(
            f"\r[{'#' * filled}{'.' * (self.WIDTH - filled)}] {done}/{self.total} games  "
            f"A {wins} - draws {done - wins - losses} - B {losses}  {elapsed:.0f}s"
        )
        self.out.flush()

    def close(self) -> None:
        if self.out is not None:
            self.out.write("\n")
            self.out.flush()


@dataclass(frozen=True, slots=True)
class SideSummary:
    """One side's results in one colour (or ``"all"``) and its move times."""

    side: str
    colour: str
    games: int
    wins: int
    draws: int
    losses: int
    mean_ms: float
    max_ms: float
    mean_cpu_ms: float
    """Mean CPU time per move: close to ``mean_ms`` on an idle machine."""
    max_cpu_ms: float


def summarise(results: Sequence[GameResult]) -> list[SideSummary]:
    """Rows for side A then side B: as Red, as Yellow, and in all games."""
    rows = []
    for side in ("a", "b"):
        for colour in (Colour.RED, Colour.YELLOW, None):
            chosen = [r for r in results if colour is None or (r.a_colour is colour) == (side == "a")]
            times = [ms for r in chosen for ms in (r.a_ms if side == "a" else r.b_ms)]
            cpu_times = [ms for r in chosen for ms in (r.a_cpu_ms if side == "a" else r.b_cpu_ms)]
            wins = sum(r.winner == side for r in chosen)
            draws = sum(r.winner is None for r in chosen)
            rows.append(
                SideSummary(
                    side=side.upper(),
                    colour="all" if colour is None else colour.value,
                    games=len(chosen),
                    wins=wins,
                    draws=draws,
                    losses=len(chosen) - wins - draws,
                    mean_ms=statistics.fmean(times) if times else 0.0,
                    max_ms=max(times, default=0.0),
                    mean_cpu_ms=statistics.fmean(cpu_times) if cpu_times else 0.0,
                    max_cpu_ms=max(cpu_times, default=0.0),
                )
            )
    return rows


def format_table(a: Player, b: Player, results: Sequence[GameResult]) -> str:
    """The result table as text."""
    lines = [f"A = {a}", f"B = {b}", ""]
    lines.append(
        f"{'side':<5}{'colour':<8}{'games':>6}{'wins':>6}{'draws':>7}{'losses':>8}"
        f"{'mean ms':>10}{'max ms':>9}{'mean cpu':>10}{'max cpu':>9}"
    )
    for row in summarise(results):
        lines.append(
            f"{row.side:<5}{row.colour:<8}{row.games:>6}{row.wins:>6}{row.draws:>7}{row.losses:>8}"
            f"{row.mean_ms:>10.1f}{row.max_ms:>9.1f}{row.mean_cpu_ms:>10.1f}{row.max_cpu_ms:>9.1f}"
        )
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m games.engine.match",
        description="Play two CPU players against each other, alternating colours, and print a result table.",
    )
    parser.add_argument("--a", required=True, help="side A: a level 1..5 or 'random'")
    parser.add_argument("--b", required=True, help="side B: a level 1..5 or 'random'")
    parser.add_argument("--games", type=int, default=40, help="number of games (default 40)")
    parser.add_argument("--ms-a", type=int, default=None, help="side A's budget per move in ms (default: its level's)")
    parser.add_argument("--ms-b", type=int, default=None, help="side B's budget per move in ms (default: its level's)")
    parser.add_argument("--seed", type=int, default=None, help="make every game reproducible")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once in worker processes (default 1)")
    parser.add_argument("--json", dest="json_path", default=None, help="also write every game as JSON to this file")
    return parser


def main(argv: Sequence[str] | None = None, *, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Entry point; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        a = Player.from_spec(args.a, args.ms_a)
        b = Player.from_spec(args.b, args.ms_b)
    except ValueError as error:
        parser.error(str(error))
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs must be at least 1")
    out = sys.stdout if stdout is None else stdout
    progress = sys.stderr if stderr is None else stderr
    results = play_match(a, b, args.games, seed=args.seed, jobs=args.jobs, progress=progress)
    out.write(format_table(a, b, results) + "\n")
    if args.json_path:
        payload = {"a": str(a), "b": str(b), "games": [_game_json(result) for result in results]}
        with open(args.json_path, "w", encoding="utf-8") as sink:
            json.dump(payload, sink)
    return 0


def _game_json(result: GameResult) -> dict[str, object]:
    payload = asdict(result)
    payload["a_colour"] = result.a_colour.value
    return payload


if __name__ == "__main__":
    sys.exit(main())
