"""Benchmark the bot API: a bot move's round trip, from its ``POST /api/bot/game/{id}/move/{peg}`` to the
``gameState`` of that move on the bot's own game stream (``GET /api/bot/game/stream/{id}``).

Two bots made from scratch play each other (challenge, accept, random legal moves), each with its game
stream open, the moves paced (``--pace``, so that the move quota is never what is measured), until
``--moves`` round trips are measured. Embedded default (SQLite, in-memory layer, one process); with
``DATABASE_URL`` and ``REDIS_URL`` set, also PostgreSQL + Redis on two processes (each bot on its own; the
opponent's moves reach it through Redis).

Run: ``.venv/bin/python scripts/bench_bots.py [--moves 100] [--write-docs docs/benchmarks.md]``
(``make bench-bots``).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.bench.processes import latency_table, loadavg, publish, servers
from harness.device import Device
from harness.stream import NdjsonStream

BEGIN_MARK = "<!-- bench-bots: begin -->"
END_MARK = "<!-- bench-bots: end -->"
PASSWORD = "four-in-a-row-3d!"


def bot_device(base: str, token: str) -> Device:
    device = Device(base)
    device.opener.addheaders = [("Authorization", f"Bearer {token}")]
    return device


def new_bot(base: str) -> tuple[str, str]:
    """(username, token) of a bot made from scratch on the server at ``base``."""
    username = f"b{uuid.uuid4().hex[:10]}"
    device = Device(base)
    device.request("GET", "/api/session")
    device.expect("POST", "/api/accounts/register", {"username": username, "password": PASSWORD}, ok=(201,))
    token = device.expect("POST", "/api/accounts/tokens", {"description": "bench"}, ok=(201,))["token"]
    bot_device(base, token).expect("POST", "/api/bot/account/upgrade")
    return username, token


def measure(base_a: str, base_b: str, *, moves: int, pace: float, seed: int) -> list[float]:
    """Round trips in seconds of ``moves`` bot moves (both bots' moves count)."""
    rng = random.Random(seed)
    (_, token_a), (name_b, token_b) = new_bot(base_a), new_bot(base_b)
    bots = [(base_a, token_a), (base_b, token_b)]
    trips: list[float] = []
    while len(trips) < moves:
        made = bot_device(base_a, token_a).expect("POST", f"/api/challenge/{name_b}",
                                                  {"turn_seconds": 60, "colour": "red"}, ok=(201,))
        game = bot_device(base_b, token_b).expect("POST", f"/api/challenge/{made['id']}/accept")["game"]
        streams = [NdjsonStream(base, f"/api/bot/game/stream/{game}", token) for base, token in bots]
        for stream in streams:
            assert stream.next()[1]["type"] == "gameFull"
        heights: dict[str, int] = {}
        ply = 0
        try:
            while len(trips) < moves:
                (base, token), stream = bots[ply % 2], streams[ply % 2]
                peg = rng.choice([f"{c}{r}" for c in "abcd" for r in "1234" if heights.get(f"{c}{r}", 0) < 4])
                device = bot_device(base, token)
                start = time.perf_counter()
                device.expect("POST", f"/api/bot/game/{game}/move/{peg}?ply={ply}")
                while True:
                    arrived, line = stream.next()
                    if line["type"] == "gameState" and line["ply"] == ply + 1:
                        break
                trips.append(arrived - start)
                heights[peg] = heights.get(peg, 0) + 1
                ply += 1
                if line["status"] != "playing":
                    break
                time.sleep(pace)
        finally:
            for stream in streams:
                stream.close()
    return trips


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--pace", type=float, default=0.1, help="seconds between moves")
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--write-docs", type=Path)
    args = parser.parse_args()
    configs = ["embedded"] + (["postgres-redis"] if os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")
                              else [])
    rows: list[tuple[str, list[float], int]] = []
    before = loadavg()
    for config in configs:
        with tempfile.TemporaryDirectory() as tmp, servers(config, Path(tmp), prefix="benchbots") as started:
            one, two = started[0], started[-1]
            trips = measure(one.http, two.http, moves=args.moves, pace=args.pace, seed=args.seed)
            errors = one.log_errors() + (two.log_errors() if two is not one else [])
        processes = "1 process" if one is two else "2 processes, each bot on its own"
        rows.append((f"{config} ({processes})", [t * 1000 for t in trips], len(errors)))
        print(latency_table("moves", rows[-1:])[-1], flush=True)
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor()) if Path("/proc/cpuinfo").exists() else "?"
    report = "\n".join([
        "### A bot move's round trip (bot API)",
        "",
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores ({cpu}), load average (1, 5, 15 min) "
        f"before `{before}`, after `{loadavg()}`. Command: `.venv/bin/python scripts/bench_bots.py "
        f"--moves {args.moves} --pace {args.pace:g}` (with `DATABASE_URL` and `REDIS_URL` for the second row).",
        "From a bot's `POST /api/bot/game/{id}/move/{peg}` to the `gameState` of that move on the same bot's game "
        "stream; two bots playing each other, random legal moves, paced; both bots' moves count.",
        "",
        *latency_table("moves", rows),
    ])
    return publish(report, args.write_docs, begin=BEGIN_MARK, end=END_MARK)


if __name__ == "__main__":
    raise SystemExit(main())
