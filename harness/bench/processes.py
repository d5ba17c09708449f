"""The two configurations the small benchmarks compare (scripts/bench_bots.py, scripts/bench_notifications.py):
the embedded default on one process (a SQLite file, the in-memory layer), and PostgreSQL + Redis on two."""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator
from pathlib import Path

from harness.bench.report import write_docs
from harness.bench.stats import percentile
from harness.database import postgres_database
from harness.server import LiveServer, migrate, running, server_env


@contextlib.contextmanager
def servers(config: str, log_dir: Path, *, prefix: str, **settings: str) -> Iterator[tuple[LiveServer, ...]]:
    """``embedded``: one server on a fresh SQLite file; otherwise two on a throwaway database beside
    ``DATABASE_URL`` (named after ``prefix``) and on ``REDIS_URL``; ``settings`` in their environment."""
    if config == "embedded":
        env = server_env(SQLITE_PATH=str(log_dir / "db.sqlite3"), **settings)
        migrate(env)
        with running(env, 1, log_dir=log_dir) as one:
            yield one
        return
    with postgres_database(os.environ["DATABASE_URL"], prefix=prefix) as url:
        env = server_env(DATABASE_URL=url, REDIS_URL=os.environ["REDIS_URL"],
                         CHANNEL_PREFIX=f"{prefix[0]}{uuid.uuid4().hex[:8]}", **settings)
        with running(env, 2, log_dir=log_dir) as two:
            yield two


def loadavg() -> str:
    """The machine's load averages over 1, 5 and 15 minutes, as text."""
    path = Path("/proc/loadavg")
    return " ".join(path.read_text().split()[:3]) if path.exists() else "unknown"


def latency_table(counted: str, rows: list[tuple[str, list[float], int]]) -> list[str]:
    """A Markdown table of latencies, one row per configuration: ``(label, milliseconds, server-log errors)``;
    ``counted`` names what was timed (the second column's heading)."""
    lines = [f"| configuration | {counted} | p50 ms | p99 ms | max ms | server-log errors |",
             "|---|---|---|---|---|---|"]
    lines += [f"| {label} | {len(ms)} | {percentile(ms, 0.5):.1f} | {percentile(ms, 0.99):.1f} | {max(ms):.1f} "
              f"| {errors} |" for label, ms, errors in rows]
    return lines


def publish(report: str, path: Path | None, *, begin: str, end: str) -> int:
    """Print ``report`` and, with ``path``, put it between the markers there; the script's exit status."""
    print(report)
    if path is not None:
        write_docs(report, path, begin=begin, end=end)
    return 0
