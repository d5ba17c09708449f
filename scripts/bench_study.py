"""Benchmark the study tools: the opening explorer with a million games (a query's p50/p99, the storage per
game) and the analysis board's answers per second per core, computed and from the cache.

Run: ``.venv/bin/python scripts/bench_study.py [--games 1000000] [--write-docs docs/benchmarks.md]``
(``make bench-study``). The explorer's tables are loaded by the benchmark into a throwaway SQLite database
(``DATABASE_URL`` set: that PostgreSQL server, a database of its own): the games are random walks of 16 plies
through a skewed opening tree (most games follow a few openings, as on a real site), aggregated a chunk of
games at a time and upserted with the explorer's own conflict clauses; the keys are the explorer's
(checked against ``study.orientation.Oriented`` on a sample). Queries are ``study.explorer.explorer_query``
on positions drawn as games reach them. The analysis board's figures are ``games.engine.verdicts`` on
positions of CPU self-play with the default budget, on this process's CPU clock (the board's lane in a thread of it).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

BEGIN_MARK = "<!-- bench-study: begin -->"
END_MARK = "<!-- bench-study: end -->"
CHUNK = 50_000


def setup_django(directory: Path) -> str:
    """Django on a database of the benchmark's own, migrated; returns what it is."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith(("postgres://", "postgresql://")):
        import psycopg

        name = f"bench_study_{os.getpid()}"
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        os.environ["DATABASE_URL"] = url.rsplit("/", 1)[0] + "/" + name
        kind = "PostgreSQL"
    else:
        os.environ.pop("DATABASE_URL", None)
        os.environ["SQLITE_PATH"] = str(directory / "bench.sqlite3")
        kind = "SQLite"
    os.environ.pop("REDIS_URL", None)
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    return kind


def drop_database() -> None:
    """The PostgreSQL database the benchmark made, dropped (a SQLite file goes with its directory)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    name = connection.settings_dict["NAME"]
    connection.close()
    import psycopg

    with psycopg.connect(os.environ["DATABASE_URL"].rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE {name}")


def _bit_images() -> list[list[int]]:
    from games.engine import transform_bits

    return [[transform_bits(s, 1 << bit) for bit in range(64)] for s in range(8)]


def random_walks(games: int, seed: int, plies: int):  # type: ignore[no-untyped-def]  # a generator of tuples
    """Each game's (key, stored peg) per ply, its last key and its pegs (hex digits), the explorer's way,
    fast: the 8 images of both bitboards kept up to date move by move; a line ends a game early."""
    from games.engine import PEG_PERMUTATIONS, is_win_at

    images = _bit_images()
    rng = random.Random(seed)
    order_of: dict[str, list[int]] = {}
    for _ in range(games):
        red, yellow = [0] * 8, [0] * 8
        heights = [0] * 16
        walk: list[tuple[str, int]] = []
        prefix = ""
        for ply in range(plies):
            keys = [(red[s] << 64) | yellow[s] for s in range(8)]
            best = min(keys)
            syms = [s for s in range(8) if keys[s] == best]
            order = order_of.get(prefix)
            if order is None:
                order = [p for p in rng.sample(range(16), 16)]
                if len(order_of) < 400_000:
                    order_of[prefix] = order
            legal = [p for p in order if heights[p] < 4]
            rank = min(int(rng.paretovariate(1.2)) - 1, len(legal) - 1)
            peg = legal[rank]
            walk.append((f"{best:032x}", min(PEG_PERMUTATIONS[s][peg] for s in syms)))
            bit = 16 * heights[peg] + peg
            heights[peg] += 1
            side = red if ply % 2 == 0 else yellow
            for s in range(8):
                side[s] |= images[s][bit]
            prefix += f"{peg:x}"
            if is_win_at(side[0], bit):  # a line: the game ends here
                break
        keys = [(red[s] << 64) | yellow[s] for s in range(8)]
        yield walk, f"{min(keys):032x}", prefix


def load(games: int, seed: int) -> tuple[float, list[str]]:
    """Loads the explorer's tables with ``games`` games; returns the seconds it took and sample records."""
    from django.db import connection, transaction

    from games.engine import Peg, Position
    from study.models import ExplorerMove, ExplorerPosition
    from study.orientation import Oriented

    positions_table = connection.ops.quote_name(ExplorerPosition._meta.db_table)
    moves_table = connection.ops.quote_name(ExplorerMove._meta.db_table)
    rng = random.Random(seed + 1)
    samples: list[str] = []
    start = time.perf_counter()
    done = 0
    walks = random_walks(games, seed, 16)
    while done < games:
        reached: dict[tuple[str, bool], int] = defaultdict(int)
        latest: dict[tuple[str, bool], str] = {}
        moves: dict[tuple[str, bool, int], list[float]] = defaultdict(lambda: [0, 0, 0, 0, 0, 0.0, 0])
        for n in range(min(CHUNK, games - done)):
            walk, last, prefix = next(walks)
            ranked = rng.random() < 0.6
            result = rng.choices((0, 1, 2), weights=(48, 4, 48))[0]
            rating = rng.gauss(1500, 200) + rng.gauss(1500, 200)
            game_id = f"{done + n:032x}"
            for key in [k for k, _ in walk] + [last]:
                reached[(key, ranked)] += 1
                latest[(key, ranked)] = game_id
            for key, peg in walk:
                row = moves[(key, ranked, peg)]
                row[0] += 1
                row[1 + result] += 1
                row[5] += rating
                row[6] += 2
            if len(samples) < 2000:
                plies = rng.randrange(0, len(prefix) + 1)
                samples.append(" ".join(Peg.from_index(int(c, 16)).value for c in prefix[:plies]))
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.executemany(
                f"INSERT INTO {positions_table} (key, ranked, games, recent) VALUES (%s, %s, %s, %s) "
                f"ON CONFLICT (key, ranked) DO UPDATE SET games = {positions_table}.games + excluded.games, "
                f"recent = excluded.recent",
                [(key, ranked, count, latest[(key, ranked)]) for (key, ranked), count in reached.items()])
            columns = ("games", "red_wins", "draws", "yellow_wins", "bot_games", "rating_sum", "rated")
            updates = ", ".join(f"{c} = {moves_table}.{c} + excluded.{c}" for c in columns)
            cursor.executemany(
                f"INSERT INTO {moves_table} (key, ranked, peg, {', '.join(columns)}) "
                f"VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
                f"ON CONFLICT (key, ranked, peg) DO UPDATE SET {updates}",
                [(key, ranked, peg, *row) for (key, ranked, peg), row in moves.items()])
        done += min(CHUNK, games - done)
        print(f"  loaded {done} games ({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    for record in samples[:50]:  # the fast keys are the explorer's
        position = Position.from_record(record)
        assert ExplorerPosition.objects.filter(key=Oriented.of(position).key).exists(), record
    return time.perf_counter() - start, samples


def storage_bytes() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT pg_total_relation_size('study_explorerposition') "
                           "+ pg_total_relation_size('study_explorermove')")
            return int(cursor.fetchone()[0])
        try:
            cursor.execute("SELECT SUM(pgsize) FROM dbstat WHERE name LIKE '%explorer%'")
            return int(cursor.fetchone()[0])
        except Exception:  # SQLite built without dbstat: the whole file (the other tables are nearly empty)
            cursor.execute("PRAGMA page_count")
            pages = int(cursor.fetchone()[0])
            cursor.execute("PRAGMA page_size")
            return pages * int(cursor.fetchone()[0])


def bench_queries(samples: list[str]) -> tuple[list[float], list[float]]:
    """Each query's wall and CPU milliseconds (SQLite runs in this thread: its CPU is the query's whole cost,
    which a loaded machine does not inflate as it does the wall time)."""
    from games.engine import Position
    from study.explorer import explorer_query

    walls, cpus = [], []
    for record in samples:
        position = Position.from_record(record)
        start, cpu = time.perf_counter(), time.thread_time()
        explorer_query(position, ranked=None)
        walls.append((time.perf_counter() - start) * 1000)
        cpus.append((time.thread_time() - cpu) * 1000)
    return walls, cpus


def bench_board(count: int, seed: int) -> tuple[int, float, int, float]:
    """(answers computed, their CPU seconds, cached answers, their CPU seconds)."""
    from django.conf import settings

    from games.engine import Peg, Position
    from games.engine.cpu import choose_move
    from study.board import analysis_answer
    from study.orientation import Oriented

    rng = random.Random(seed)
    positions: dict[str, Position] = {}  # one per symmetry class: each is computed, not read from the cache
    while len(positions) < count:
        position = Position.initial()
        for _ in range(rng.randrange(0, 31)):
            if position.outcome is not None:
                break
            position = position.play(Peg.from_name(choose_move(position.record(), 2, seed=rng.randrange(1 << 30))))
        if position.outcome is None:
            positions.setdefault(Oriented.of(position).key, position)
    budget = settings.ANALYSIS_BOARD_BUDGET_MS
    settings.CPU_WORKERS = 0  # the board's lane in a thread of this process: its CPU is this process's

    async def answered(rounds: int) -> list[bool]:
        return [(await analysis_answer(position, budget_ms=budget))["cached"]
                for _ in range(rounds) for position in positions.values()]

    start = time.process_time()
    assert not any(asyncio.run(answered(1)))
    computed = time.process_time() - start
    start = time.process_time()
    assert all(asyncio.run(answered(10)))
    return len(positions), computed, 10 * len(positions), time.process_time() - start


def quantile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def report(games: int, seed: int, board_positions: int) -> str:
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as directory:
        kind = setup_django(Path(directory))
        seconds, samples = load(games, seed)
        size = storage_bytes()
        times, cpus = bench_queries(samples)
        computed, computed_s, cached, cached_s = bench_board(board_positions, seed)
        from study.models import ExplorerMove, ExplorerPosition

        rows = ExplorerPosition.objects.count(), ExplorerMove.objects.count()
        drop_database()
    load_after = os.getloadavg()
    p99, cpu_p99 = quantile(times, 0.99), quantile(cpus, 0.99)
    return "\n".join([
        f"## Study (`make bench-study`, i.e. `.venv/bin/python scripts/bench_study.py --games {games}`)",
        "",
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.machine()} {platform.system()}, {os.cpu_count()} cores, "
        f"CPython {platform.python_version()}, {kind}; load average {load_before[0]:.2f} before, "
        f"{load_after[0]:.2f} after.",
        "",
        f"**The opening explorer with {games:,} games** (16 plies each, loaded in {seconds:.0f} s): "
        f"{rows[0]:,} position rows and {rows[1]:,} move rows, **{size / games:.0f} bytes per game** "
        f"({size / 1e6:.0f} MB with their indexes; the `ExplorerLearned` row of each game adds its primary key "
        "and a date). A query (`explorer_query`, the ORM's two reads and the orientation, "
        f"{len(times)} positions drawn as games reach them): wall median {statistics.median(times):.2f} ms, "
        f"p99 **{p99:.2f} ms** (target ≤ 20 ms: {'met' if p99 <= 20 else 'missed'}); its CPU time, which the "
        f"machine's load does not inflate: median {statistics.median(cpus):.2f} ms, p99 **{cpu_p99:.2f} ms** "
        f"({'met' if cpu_p99 <= 20 else 'missed'}).",
        "",
        f"**The analysis board** ({computed} positions of CPU self-play, plies 0 to 30, the default budget): "
        f"computed, {computed / computed_s:.1f} answers per CPU second of one core "
        f"({computed_s / computed * 1000:.0f} ms each on average: most openings spend the whole budget); "
        f"from the cache, {cached / cached_s:,.0f} answers per CPU second.",
    ])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--board-positions", type=int, default=40)
    parser.add_argument("--write-docs", type=Path, help="write the figures into this Markdown file")
    args = parser.parse_args()
    text = report(args.games, args.seed, args.board_positions)
    print(text)
    if args.write_docs:
        from harness.bench.report import write_docs

        write_docs(text, args.write_docs, begin=BEGIN_MARK, end=END_MARK)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
