"""Benchmark what heavy analysis board requests cost everybody else on the same process (issue 47, item 1).

One daphne process (embedded: SQLite and the in-memory layer; with ``DATABASE_URL`` and ``REDIS_URL`` set,
PostgreSQL and Redis, a throwaway database of that server), default settings (one CPU worker, the analysis
board's lane and quota as shipped). Another client sends ``GET /api/session`` one after the other
(``--requests`` of them, ``--gap`` seconds apart): first on the idle process, then while ``--attackers``
clients from one address each keep one ``GET /api/analysis?record=<a distinct 10-ply position>&budget=3000``
in flight (a new position each time, so the cache never answers), waiting as long as a refusal's ``Retry-After`` asks
(``--ignore-retry-after``: not at all). Target: that client's p95 under the load
within twice the idle one's. The analysis answers are counted by status (200 computed, 503 busy, 429 over
the address's quota).

Run: ``.venv/bin/python scripts/bench_analysis_load.py [--attackers 16] [--requests 200]``
(``make bench-analysis-load``).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections import Counter
from contextlib import ExitStack
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import Position
from harness.bench.stats import percentile
from harness.database import postgres_database
from harness.device import Device
from harness.server import HTTP_TIMEOUT, LiveServer, migrate, running, server_env

PLIES = 10
BUDGET_MS = 3000


def positions(count: int, seed: int) -> list[str]:
    """``count`` distinct records of ``PLIES`` random legal moves, none of them over."""
    rng, found = random.Random(seed), set[str]()
    while len(found) < count:
        position, moves = Position.from_record(""), []
        for _ in range(PLIES):
            peg = rng.choice(list(position.legal_pegs()))
            position = position.play(peg)
            moves.append(str(peg))
            if position.to_move is None:
                break
        if position.to_move is not None and len(moves) == PLIES:
            found.add(",".join(moves))
    return sorted(found)


def analysis_status(base: str, record: str) -> tuple[str, float]:
    """The answer's status (``timeout`` when none came) and the ``Retry-After`` it asked for (0: none)."""
    url = f"{base}/api/analysis?record={record}&budget={BUDGET_MS}"
    try:
        with urllib.request.urlopen(url, timeout=HTTP_TIMEOUT) as response:
            response.read()
            return str(response.status), 0.0
    except urllib.error.HTTPError as err:
        return str(err.code), float(err.headers.get("Retry-After") or 0)
    except OSError:
        return "timeout", 0.0


def attack(base: str, records: list[str], stop: threading.Event, statuses: Counter[str], lock: threading.Lock,
           *, heed: bool) -> None:
    """One client keeping one analysis request in flight until ``stop``, a new position each time, waiting
    as long as a refusal's ``Retry-After`` says when ``heed``."""
    for record in records:
        if stop.is_set():
            return
        status, retry_after = analysis_status(base, record)
        with lock:
            statuses[status] += 1
        if heed:
            stop.wait(retry_after)


def latencies(device: Device, requests: int, gap: float) -> list[float]:
    """Seconds each of ``requests`` ``GET /api/session`` took, ``gap`` seconds apart."""
    taken = []
    for _ in range(requests):
        start = time.perf_counter()
        device.expect("GET", "/api/session")
        taken.append(time.perf_counter() - start)
        time.sleep(gap)
    return taken


def measure(server: LiveServer, *, attackers: int, requests: int, gap: float,
            heed: bool) -> tuple[list[float], list[float], Counter[str]]:
    """(idle latencies, latencies under the load, the analysis answers by status)."""
    device = Device(server.http)
    latencies(device, 50, 0.0)  # warm: the threads, their connections, the caches
    idle = latencies(device, requests, gap)
    stop, lock, statuses = threading.Event(), threading.Lock(), Counter[str]()
    records = positions(attackers * 400, seed=47)
    workers = [threading.Thread(target=attack, args=(server.http, records[n::attackers], stop, statuses, lock),
                                kwargs={"heed": heed})
               for n in range(attackers)]
    for worker in workers:
        worker.start()
    try:
        time.sleep(1.0)  # every attacker's first request in
        loaded = latencies(device, requests, gap)
    finally:
        stop.set()
        for worker in workers:
            worker.join()
    return idle, loaded, statuses


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--attackers", type=int, default=16)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--gap", type=float, default=0.05, help="seconds between the measured requests")
    parser.add_argument("--ignore-retry-after", action="store_true",
                        help="the attackers send their next request at once after a refusal")
    args = parser.parse_args()
    before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        if os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL"):
            url = stack.enter_context(postgres_database(os.environ["DATABASE_URL"], prefix="benchanalysis"))
            env = server_env(DATABASE_URL=url, REDIS_URL=os.environ["REDIS_URL"],
                             CHANNEL_PREFIX=f"b{uuid.uuid4().hex[:8]}")
            kind = "PostgreSQL + Redis"
        else:
            env = server_env(SQLITE_PATH=str(Path(tmp) / "bench.sqlite3"))
            migrate(env)
            kind = "embedded (SQLite, in-memory layer)"
        with running(env, 1, log_dir=Path(tmp)) as (server,):
            idle, loaded, statuses = measure(server, attackers=args.attackers, requests=args.requests, gap=args.gap,
                                              heed=not args.ignore_retry_after)
            errors = len(server.log_errors())
    p95_idle, p95_loaded = percentile(idle, 0.95), percentile(loaded, 0.95)
    print(f"one daphne process, {kind}; {os.cpu_count()} cores, 1-minute load average {before[0]:.2f} before, "
          f"{os.getloadavg()[0]:.2f} after")
    print("| GET /api/session | p50 ms | p95 ms | max ms |")
    print("|---|---|---|---|")
    for name, taken in (("idle process", idle), (f"{args.attackers} heavy analyses in flight", loaded)):
        print(f"| {name} | {percentile(taken, 0.5) * 1000:.1f} | {percentile(taken, 0.95) * 1000:.1f} "
              f"| {max(taken) * 1000:.1f} |")
    print(f"analysis answers by status: {dict(sorted(statuses.items()))}; server-log errors: {errors}")
    met = p95_loaded <= 2 * p95_idle
    print(f"p95 under load within twice the idle one: {'met' if met else 'missed'} "
          f"({p95_loaded * 1000:.1f} ms against {p95_idle * 1000:.1f} ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
