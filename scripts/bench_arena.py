"""Benchmark an arena: 500 players in one arena on one server process (``harness.bench.arena`` says what
is measured; ``make bench-server`` runs the same as its ``arena`` part).

Run: ``make bench-arena`` or ``.venv/bin/python scripts/bench_arena.py [--players 500 --seconds 90]``.

One daphne process (PostgreSQL + Redis with ``DATABASE_URL`` and ``REDIS_URL``, else the embedded SQLite
file and in-memory layer).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.bench.arena import ARENA_ENV, run_arena
from harness.bench.suite import configured_env, describe, servers


async def run(players: int, seconds: float, workdir: Path) -> dict[str, object]:
    with configured_env(workdir) as base:
        env = {**base, **ARENA_ENV}
        with servers(workdir / "arena", env, 1) as (server,):
            return {"setup": describe(env), **await run_arena(server, env, players, seconds)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=90.0, help="measured from the start")
    args = parser.parse_args()
    before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="bench-arena-") as tmp:
        result = asyncio.run(run(args.players, args.seconds, Path(tmp)))
    after = os.getloadavg()
    print(f"# {time.strftime('%Y-%m-%d %H:%M')} on {platform.node()} ({os.cpu_count()} cores), load average "
          f"before {before[0]:.2f} {before[1]:.2f} {before[2]:.2f}, after {after[0]:.2f} {after[1]:.2f} {after[2]:.2f}")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
