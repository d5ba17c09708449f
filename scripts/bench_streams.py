"""Benchmark what open bot streams cost everybody else: other requests' latency and PostgreSQL connections
with 0, 8 and 40 NDJSON streams open (issue 30).

One daphne process on PostgreSQL + Redis (``DATABASE_URL``, ``REDIS_URL``: a throwaway database of that
server), default settings but the room quotas. Bot accounts made from scratch open event streams
(``GET /api/stream/event``), as many per account as an account may (so 40 streams take several accounts);
with each number of streams open, one device sends ``--requests`` requests one after the other
(``GET /api/session`` then ``POST /api/rooms`` by turns: a read and a write of the database), and the
database's connections are counted in ``pg_stat_activity``. Target: the p95 with 8 streams within twice that of
none, and PostgreSQL connections grown by at most a few (``CONNECTIONS_SLACK``).

Run: ``DATABASE_URL=... REDIS_URL=... .venv/bin/python scripts/bench_streams.py [--requests 200]
[--write-docs docs/benchmarks.md]`` (``make bench-streams``).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.bench.report import write_docs
from harness.bench.stats import percentile
from harness.database import connections_to, postgres_database
from harness.device import Device
from harness.server import LiveServer, lifted_quotas, running, server_env
from harness.stream import NdjsonStream

BEGIN_MARK = "<!-- bench-streams: begin -->"
END_MARK = "<!-- bench-streams: end -->"
PASSWORD = "four-in-a-row-3d!"
LEVELS = (0, 8, 40)
PER_ACCOUNT = 3  # BOT_EVENT_STREAMS_PER_ACCOUNT's default (--per-account)
CONNECTIONS_SLACK = 3  # "grow by at most a few"


def new_token(base: str) -> str:
    """A token of an account made from scratch on the server at ``base``."""
    device = Device(base)
    device.request("GET", "/api/session")
    device.expect("POST", "/api/accounts/register", {"username": f"s{uuid.uuid4().hex[:10]}", "password": PASSWORD},
                  ok=(201,))
    return str(device.expect("POST", "/api/accounts/tokens", {"description": "bench"}, ok=(201,))["token"])


def latencies(device: Device, requests: int) -> list[float]:
    """Seconds each of ``requests`` requests took, sent one after the other: a read, a write, by turns."""
    taken = []
    for n in range(requests):
        start = time.perf_counter()
        if n % 2:
            device.expect("POST", "/api/rooms", {"ranked": False}, ok=(201,))
        else:
            device.expect("GET", "/api/session")
        taken.append(time.perf_counter() - start)
    return taken


def measure(server: LiveServer, url: str, *, requests: int, per_account: int,
            levels: tuple[int, ...]) -> list[tuple[int, list[float], int]]:
    """(streams open, the requests' latencies, the database's connections) at each of ``levels``."""
    tokens = [new_token(server.http) for _ in range(-(-max(levels) // per_account))]
    device = Device(server.http)
    device.join("Bench")
    latencies(device, 100)  # warm: the threads, their connections, the caches
    results = []
    for level in levels:
        streams = [NdjsonStream(server.http, "/api/stream/event", tokens[n // per_account]) for n in range(level)]
        try:
            time.sleep(1.0)  # the streams' opening work done
            taken = latencies(device, requests)
            connections = connections_to(url)
            assert not any(stream.ended.is_set() for stream in streams), "a stream ended while measured"
        finally:
            for stream in streams:
                stream.close()
        results.append((level, taken, connections))
        print(f"{level} streams: p50 {percentile(taken, 0.5) * 1000:.1f} ms, "
              f"p95 {percentile(taken, 0.95) * 1000:.1f} ms, {connections} connections", flush=True)
        time.sleep(1.0)  # the closed streams' slots given back
    return results


def loadavg() -> str:
    path = Path("/proc/loadavg")
    return " ".join(path.read_text().split()[:3]) if path.exists() else "unknown"


def report(results: list[tuple[int, list[float], int]], *, requests: int, per_account: int, before: str,
           errors: int) -> str:
    p95 = {level: percentile(taken, 0.95) for level, taken, _ in results}
    connections = {level: count for level, _, count in results}
    rows = [f"| {level} | {percentile(taken, 0.5) * 1000:.1f} | {p95[level] * 1000:.1f} | {max(taken) * 1000:.1f} "
            f"| {count} |" for level, taken, count in results]
    latency_met = p95[8] <= 2 * p95[0]
    connections_met = connections[8] - connections[0] <= CONNECTIONS_SLACK
    most = max(p95)
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor()) if Path("/proc/cpuinfo").exists() else "?"
    return "\n".join([
        "### Other requests while bots stream (bot API)",
        "",
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.node()}, {os.cpu_count()} cores ({cpu}), load average "
        f"(1, 5, 15 min) before `{before}`, after `{loadavg()}`. Command: `DATABASE_URL=… REDIS_URL=… "
        f".venv/bin/python scripts/bench_streams.py --requests {requests} --per-account {per_account}` "
        "(`make bench-streams`).",
        "One daphne process on PostgreSQL + Redis, default settings (`HTTP_THREADS` 4, `DB_THREADS` 4, "
        f"`DB_CONNECTIONS` persistent); event streams open, {per_account} per bot account; with each number open, "
        f"{requests} requests one after the other from one device (`GET /api/session` and `POST /api/rooms` by "
        "turns); connections: the database's rows in `pg_stat_activity` while the streams are open.",
        "",
        "| streams open | p50 ms | p95 ms | max ms | PostgreSQL connections |",
        "|---|---|---|---|---|",
        *rows,
        "",
        f"- p95 with 8 streams within twice that with none: {'met' if latency_met else 'missed'} "
        f"({p95[8] * 1000:.1f} ms against {p95[0] * 1000:.1f} ms; {most} streams: {p95[most] * 1000:.1f} ms).",
        f"- PostgreSQL connections grow by at most a few ({CONNECTIONS_SLACK}) with 8 streams open: "
        f"{'met' if connections_met else 'missed'} ({connections[0]} → {connections[8]}; "
        f"{most} streams: {connections[most]}).",
        f"- Server-log errors: {errors}.",
    ])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--per-account", type=int, default=PER_ACCOUNT, help="event streams per bot account")
    parser.add_argument("--levels", default=",".join(map(str, LEVELS)),
                        help="numbers of streams open, comma-separated (0 and 8 among them)")
    parser.add_argument("--write-docs", type=Path)
    args = parser.parse_args()
    if not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")):
        print("bench_streams: set DATABASE_URL (PostgreSQL) and REDIS_URL", file=sys.stderr)
        return 2
    before = loadavg()
    with tempfile.TemporaryDirectory() as tmp, \
            postgres_database(os.environ["DATABASE_URL"], prefix="benchstreams") as url:
        env = server_env(DATABASE_URL=url, REDIS_URL=os.environ["REDIS_URL"], CHANNEL_PREFIX=f"b{uuid.uuid4().hex[:8]}",
                         **lifted_quotas())
        with running(env, 1, log_dir=Path(tmp)) as (server,):
            levels = tuple(int(n) for n in args.levels.split(","))
            results = measure(server, url, requests=args.requests, per_account=args.per_account, levels=levels)
            errors = len(server.log_errors())
    text = report(results, requests=args.requests, per_account=args.per_account, before=before, errors=errors)
    print(text)
    if args.write_docs:
        write_docs(text, args.write_docs, begin=BEGIN_MARK, end=END_MARK)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
