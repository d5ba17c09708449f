"""Benchmark a notification's delivery: from a challenger's ``POST /api/challenge/{username}`` to the
``notification`` frame of it on the challenged's player socket (``/ws/player/``, as a replay or puzzle
page holds it).

Two accounts made from scratch; the challenger challenges ``--count`` times (each then canceled, so the
open limit never refuses), paced. Embedded default (SQLite, in-memory layer, one process); with
``DATABASE_URL`` and ``REDIS_URL`` set, also PostgreSQL + Redis on two processes (the challenger on one,
the challenged's page on the other: the frame crosses Redis).

Run: ``.venv/bin/python scripts/bench_notifications.py [--count 50] [--write-docs docs/benchmarks.md]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.bench.processes import latency_table, loadavg, publish, servers
from harness.device import Device
from harness.player import PlayerSocket
from harness.room import ws_base

BEGIN_MARK = "<!-- bench-notifications: begin -->"
END_MARK = "<!-- bench-notifications: end -->"
PASSWORD = "four-in-a-row-3d!"
# The challenge quotas (issue 30) lifted: one challenger sends them all.
QUOTAS = {"CHALLENGES_PER_HOUR_PER_PLAYER": "100000", "CHALLENGES_PER_HOUR_PER_ADDRESS": "100000"}


def account(base: str, username: str) -> Device:
    device = Device(base)
    device.request("GET", "/api/session")
    device.expect("POST", "/api/accounts/register", {"username": username, "password": PASSWORD}, ok=(201,))
    return device


async def measure(base_a: str, base_b: str, *, count: int, pace: float) -> list[float]:
    """Seconds from each challenge's POST (on ``base_a``) to its notification on B's socket (``base_b``)."""
    name = f"n{uuid.uuid4().hex[:8]}"
    ann, bob = account(base_a, f"a{name}"), account(base_b, name)
    page = await PlayerSocket(ws_base(base_b), bob, base_b).connect()
    delays = []
    try:
        for _ in range(count):
            sent = time.perf_counter()
            made = await asyncio.to_thread(ann.expect, "POST", f"/api/challenge/{name}", {"turn_seconds": 60},
                                           ok=(201,))
            frame = await page.wait("notification", timeout=10)
            delays.append(time.perf_counter() - sent)
            assert frame["notification"]["data"]["challenge"]["id"] == made["id"]
            await asyncio.to_thread(ann.expect, "POST", f"/api/challenge/{made['id']}/cancel")
            await asyncio.sleep(pace)
    finally:
        await page.close()
    return delays


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=50)
    parser.add_argument("--pace", type=float, default=0.1, help="seconds between challenges")
    parser.add_argument("--write-docs", type=Path)
    args = parser.parse_args()
    configs = ["embedded"] + (["postgres-redis"] if os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")
                              else [])
    rows: list[tuple[str, list[float], int]] = []
    before = loadavg()
    for config in configs:
        with tempfile.TemporaryDirectory() as tmp, \
                servers(config, Path(tmp), prefix="benchnotify", **QUOTAS) as started:
            one, two = started[0], started[-1]
            delays = asyncio.run(measure(one.http, two.http, count=args.count, pace=args.pace))
            errors = one.log_errors() + (two.log_errors() if two is not one else [])
        processes = "1 process" if one is two else "2 processes, the page on the other one"
        rows.append((f"{config} ({processes})", [t * 1000 for t in delays], len(errors)))
        print(latency_table("notifications", rows[-1:])[-1], flush=True)
    report = "\n".join([
        "### A notification's delivery (issue 31)",
        "",
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores, load average (1, 5, 15 min) before "
        f"`{before}`, after `{loadavg()}`. Command: `.venv/bin/python scripts/bench_notifications.py --count "
        f"{args.count}` (with `DATABASE_URL` and `REDIS_URL` for the second row). From a challenger's "
        "`POST /api/challenge/{username}` (its whole request included) to the `notification` frame of it on the "
        "challenged's player socket.",
        "",
        *latency_table("notifications", rows),
    ])
    return publish(report, args.write_docs, begin=BEGIN_MARK, end=END_MARK)


if __name__ == "__main__":
    raise SystemExit(main())
