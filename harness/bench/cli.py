"""Load a server with concurrent games over the real protocol and time every move.

Run: ``.venv/bin/python scripts/bench_server.py --spawn --games 200 --rate 200 --seconds 30``
(``make bench-server`` runs the whole suite), or ``--url http://HOST:PORT`` to load a server already running
(start that one with the room quotas raised, e.g. ``ROOMS_PER_HOUR_PER_ADDRESS=1000000000``: every room
comes from this one address).

Moves are offered at ``--rate`` per second in all, spread evenly over the games (each game moves every
``games / rate`` seconds); a game whose moves take longer than that simply moves less often, so
"moves done/s" below the offered rate means the server did not keep up. ``--spawn`` starts daphne here
on a database of its own: a throwaway PostgreSQL database beside ``DATABASE_URL`` (and ``REDIS_URL``)
if set, else a fresh SQLite file.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import tempfile
from pathlib import Path

from harness.bench.game import LoadConfig, run_load
from harness.bench.report import progress_printer, result_table, suite_report, write_docs
from harness.bench.stats import CpuReader, Stats, cpu_not_measured
from harness.bench.suite import OPTIONAL_PARTS, PARTS, QUICK, SuiteSize, configured_env, describe, run_suite, servers
from harness.server import log_errors


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line (``argv``, or ``sys.argv[1:]`` when None)."""
    parser = argparse.ArgumentParser(prog="scripts/bench_server.py", description=__doc__.split("\n\n")[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--suite", action="store_true",
                       help="everything: the echo baseline and three configurations, idle sockets, a spectator "
                            "storm (PostgreSQL + Redis from DATABASE_URL and REDIS_URL)")
    where.add_argument("--url", help="base URL of a running server, e.g. http://127.0.0.1:8000")
    where.add_argument("--spawn", action="store_true",
                       help="start daphne here: a throwaway database beside DATABASE_URL (PostgreSQL) and "
                            "REDIS_URL if set, else a fresh SQLite file")
    parser.add_argument("--games", type=int, default=200, help="concurrent games (default 200)")
    parser.add_argument("--rate", type=float, default=200.0, help="moves per second offered in all (default 200)")
    parser.add_argument("--seconds", type=float, default=30.0, help="seconds of play after setup (default 30)")
    parser.add_argument("--room-creators", type=int, default=0,
                        help="devices creating rooms in a loop beside the games (default 0)")
    parser.add_argument("--server-log", type=Path, help="with --url: the server's log file, to count its errors")
    parser.add_argument("--keep-log", type=Path, help="with --spawn: copy the server log here afterwards")
    parser.add_argument("--quick", action="store_true", help="with --suite: small numbers, to try it out")
    parser.add_argument("--only", default=",".join(PARTS),
                        help=f"with --suite: the parts to run, comma-separated (default {','.join(PARTS)}; "
                             f"also {','.join(OPTIONAL_PARTS)})")
    parser.add_argument("--write-docs", type=Path, help="with --suite: write the figures into this Markdown file")
    return parser.parse_args(argv)


async def bench(config: LoadConfig, log_path: Path | None, server_cpu: CpuReader) -> tuple[Stats, list[str] | None]:
    """One load run with a progress line; its Stats and the server-log errors it caused (None: not watched)."""
    stats = Stats()
    errors_before = len(log_errors(log_path)) if log_path is not None else 0
    await run_load(config, stats, progress_printer(log_path), server_cpu)
    server_errors = log_errors(log_path)[errors_before:] if log_path is not None else None
    return stats, server_errors


def suite(args: argparse.Namespace, argv: list[str] | None) -> int:
    """``--suite``: every part asked for, its report printed (and written into ``--write-docs``)."""
    size = QUICK if args.quick else SuiteSize()
    with tempfile.TemporaryDirectory(prefix="bench-suite-") as workdir:
        rows, extra = run_suite(size, Path(workdir), tuple(args.only.split(",")))
    command = "scripts/bench_server.py " + " ".join(sys.argv[1:] if argv is None else argv)
    report = suite_report(rows, extra, command)
    print(report)
    if args.write_docs:
        write_docs(report, args.write_docs)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark ``argv`` asks for; 1 if a client or the server's log saw an error, else 0."""
    args = parse_args(argv)
    if args.suite:
        return suite(args, argv)
    with contextlib.ExitStack() as stack:
        if args.spawn:
            workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-server-")))
            env = stack.enter_context(configured_env(workdir))
            [server] = stack.enter_context(servers(workdir, env, 1))
            if args.keep_log is not None:
                stack.callback(lambda: args.keep_log.write_bytes(server.log_path.read_bytes()))
            url, log_path, where = server.http, server.log_path, f"{describe(env)}, {server.http}"
            server_cpu: CpuReader = server.cpu_seconds
        else:
            url, log_path, where, server_cpu = args.url, args.server_log, args.url, cpu_not_measured
        config = LoadConfig(url=url, games=args.games, rate=args.rate, seconds=args.seconds,
                            room_creators=args.room_creators)
        print(f"{config.games} games, {config.rate:g} moves/s offered, {config.seconds:g} s, against {where}",
              flush=True)
        stats, server_errors = asyncio.run(bench(config, log_path, server_cpu))
        print(result_table(config, stats, server_errors))
        for line in (server_errors or [])[:5]:
            print(f"  server log: {line[:160]}")
    failed = sum(stats.errors.values()) + len(server_errors or [])
    return 1 if failed else 0
