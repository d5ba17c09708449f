"""A connect storm: N room sockets (two to a room, each of a player of its own) opened all at once, as after a
restart or a deploy when every page reconnects, against a server of one checkout on PostgreSQL + Redis
(``DATABASE_URL``, ``REDIS_URL``): how many were accepted and got their room, and in how long.

Run: ``.venv/bin/python scripts/bench_server_storm.py --sockets 1000 TREE`` (a checkout of the project, served
with this checkout's ``.venv``). docs/benchmarks.md ("Issue 48") has what it measured.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.bench.game import join, open_socket
from harness.database import postgres_database
from harness.device import Device
from harness.ports import HOST, free_port
from harness.server import BIN, lifted_quotas, server_env, terminate, wait_healthy

OPEN_TIMEOUT = 60.0  # a client's patience: far above daphne's 5 s for an answer to the handshake


async def storm(url: str, sockets: int) -> None:
    devices = [Device(url) for _ in range(sockets)]
    gate = asyncio.Semaphore(20)

    async def player(i: int) -> None:
        async with gate:
            await join(devices[i], f"Storm {i}")

    await asyncio.gather(*(player(i) for i in range(sockets)))
    codes = [await asyncio.to_thread(devices[i].create_room, {"ranked": False}) for i in range(0, sockets, 2)]
    began = time.monotonic()
    results = await asyncio.gather(*(open_socket(devices[i], codes[i // 2], OPEN_TIMEOUT) for i in range(sockets)),
                                   return_exceptions=True)
    took = time.monotonic() - began
    opened = [r for r in results if not isinstance(r, BaseException)]
    failed = Counter(f"{type(r).__name__}: {str(r)[:70]}" for r in results if isinstance(r, BaseException))
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    print(f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, load average {load}: {len(opened)} of {sockets} "
          f"sockets open with their room in {took:.1f} s; failed: {dict(failed) or 'none'}")
    await asyncio.gather(*(s.close() for s in opened), return_exceptions=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=1000)
    parser.add_argument("tree", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-storm-") as work, \
            postgres_database(os.environ["DATABASE_URL"]) as database:
        env = server_env(DATABASE_URL=database, REDIS_URL=os.environ["REDIS_URL"],
                         CHANNEL_PREFIX=f"storm{uuid.uuid4().hex[:6]}", LOG_LEVEL="WARNING", **lifted_quotas())
        port, log = free_port(), Path(work) / "server.log"
        with log.open("wb") as out:
            proc = subprocess.Popen([str(BIN / "python"), "-m", "config.serve", "--access-log", os.devnull, "-b", HOST,
                                     "-p", str(port), "config.asgi:application"], cwd=args.tree,
                                    env={**env, "PYTHONPATH": str(args.tree.resolve())}, stdout=out,
                                    stderr=subprocess.STDOUT)
        try:
            wait_healthy(f"http://{HOST}:{port}/api/health", proc, log)
            asyncio.run(storm(f"http://{HOST}:{port}", args.sockets))
        finally:
            terminate(proc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
