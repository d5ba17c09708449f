"""The CPU of idle servers (no socket, no request but the health check that starts their loops), of one or
more checkouts side by side over the same window, so that a shared, loaded machine weighs on each alike.

Run: ``.venv/bin/python scripts/bench_server_idle.py --seconds 60 TREE [TREE ...]`` (a checkout of the
project each, e.g. ``git archive <commit> | tar -x -C /tmp/before``; each served with this checkout's
``.venv``); embedded (SQLite) unless ``DATABASE_URL`` and ``REDIS_URL`` are set. docs/benchmarks.md
("Issue 48") has what it measured.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness import procfs
from harness.database import postgres_database, sqlite_database
from harness.ports import HOST, free_port
from harness.server import BIN, server_env, terminate, wait_healthy

SETTLE_SECONDS = 15.0  # after the health check: the loops' first rounds, the CPU workers started


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("trees", nargs="+", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-idle-") as work, contextlib.ExitStack() as stack:
        started: list[tuple[Path, subprocess.Popen[bytes]]] = []
        for tree in args.trees:
            if os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL"):
                url = stack.enter_context(postgres_database(os.environ["DATABASE_URL"]))
                env = server_env(DATABASE_URL=url, REDIS_URL=os.environ["REDIS_URL"],
                                 CHANNEL_PREFIX=f"idle{uuid.uuid4().hex[:6]}")
            else:
                env = server_env(SQLITE_PATH=sqlite_database(Path(work)))
            port, log = free_port(), Path(work) / f"{len(started)}.log"
            with log.open("wb") as out:
                proc = subprocess.Popen([str(BIN / "python"), "-m", "config.serve", "--access-log", os.devnull, "-b",
                                         HOST, "-p", str(port), "config.asgi:application"], cwd=tree,
                                        env={**env, "PYTHONPATH": str(tree.resolve())}, stdout=out,
                                        stderr=subprocess.STDOUT)
            stack.callback(terminate, proc)
            wait_healthy(f"http://{HOST}:{port}/api/health", proc, log)
            started.append((tree, proc))
        time.sleep(SETTLE_SECONDS)
        load_before = loadavg()
        before = [procfs.tree_cpu_seconds(proc.pid) for _, proc in started]
        began = time.monotonic()
        time.sleep(args.seconds)
        took = time.monotonic() - began
        after = [procfs.tree_cpu_seconds(proc.pid) for _, proc in started]
        print(f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, {took:.0f} s, load average {load_before} "
              f"-> {loadavg()}")
        for (tree, _), used_before, used_after in zip(started, before, after, strict=True):
            used = used_after - used_before
            print(f"  {tree}: {used / took:.2%} of a core ({used:.2f} s of CPU)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
