"""``make bench-arcade``: arcade runs played over the page's own transport (``/ws/arcade/``) on one server
process, beside a bare Channels echo on the same configuration (docs/arcade.md, docs/benchmarks.md).

Each run is a device (a session, ``POST /api/arcade/runs``) with its socket; every run sends a move every
``runs / rate`` seconds (paced, each move waiting for its answer, matched by its ``ref``; ``n`` the steps it
last saw), for ``--seconds``. Measured: the moves done (answered in time) against those offered, their round trips
(p50, p99), and the server's CPU seconds per move. The echo: ``runs / 2`` pairs of sockets at the same total
rate (``harness.bench.echo``), its p99 and CPU per message. Both servers run at once with their clients connected,
and the two sides take turns in ``--rounds`` rounds (the arcade's phase, then the echo's): a stall of this shared
machine lands in one phase of one round, and the ratios are taken round by round (their median is the figure).
The embedded default (SQLite, one process, the in-memory layer) at ``--embedded-rate``; with DATABASE_URL and
REDIS_URL set, PostgreSQL + Redis at ``--rate``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import websockets

from harness.bench.echo import ECHO_APP, ECHO_HEALTH, EchoPair
from harness.bench.stats import Stats, paced, percentile, set_up_all
from harness.database import postgres_database
from harness.device import Device
from harness.room import ws_base
from harness.server import LiveServer, migrate, running, server_env

DIRECTIONS = ("left", "backward", "right", "forward", "down", "up")
UNLIMITED = str(10**9)
TIMEOUT = 10.0
SET_UP_AT_ONCE = 25  # drivers set up at once


class ArcadeRun:
    """One run: its device, its socket, and the moves it sends."""

    def __init__(self, index: int, server: LiveServer, stats: Stats) -> None:
        self.index, self.server, self.stats = index, server, stats
        self.rng = random.Random(index)
        self.directions = itertools.cycle(self.rng.sample(DIRECTIONS, len(DIRECTIONS)))
        self.steps = 0
        self.sent = 0  # the ref of the last move sent: an answer that came after its timeout is skipped
        self.run_id = ""
        self.conn: websockets.ClientConnection | None = None

    async def set_up(self) -> None:
        device = Device(self.server.http)
        await asyncio.to_thread(device.join, f"Bench {self.index}")
        run = await asyncio.to_thread(device.expect, "POST", "/api/arcade/runs", {"mode": "cube3"})
        self.run_id = run["id"]
        self.conn = await websockets.connect(ws_base(self.server.http) + "/ws/arcade/", open_timeout=TIMEOUT,
                                             additional_headers={"Cookie": device.cookie_header(),
                                                                 "Origin": self.server.http}, max_queue=None)

    async def play(self, until: float, interval: float) -> None:
        await paced(self._move, until, interval, self.rng)

    async def _move(self) -> None:
        assert self.conn is not None
        loop = asyncio.get_running_loop()
        sent = loop.time()
        self.sent += 1
        try:
            await self.conn.send(json.dumps({"type": "move", "run": self.run_id, "dir": next(self.directions),
                                             "n": self.steps, "ref": self.sent}))
            async with asyncio.timeout(TIMEOUT):
                answer = json.loads(await self.conn.recv())
                while answer.get("ref") != self.sent:  # a late answer to a move that timed out: its steps kept
                    self.steps = answer.get("steps", self.steps)
                    answer = json.loads(await self.conn.recv())
            if answer["type"] != "step":
                self.stats.error(f"refused {answer.get('code')}")
                self.steps = answer.get("run", {}).get("steps", self.steps)
                return
            self.steps = answer["steps"]
            done = loop.time()
            self.stats.round_trips.append((done, done - sent))
        except Exception as exc:
            self.stats.error(f"move {type(exc).__name__}")

    async def close(self) -> None:
        if self.conn is not None:
            with contextlib.suppress(Exception):
                await self.conn.close()


@dataclass(frozen=True, slots=True)
class Result:
    label: str
    offered: int
    sent: int  # moves sent: done, refused, failed or late (a slow client sends fewer than offered)
    done: int
    p50: float
    p99: float
    cpu_per: float | None
    errors: dict[str, int]
    trips: tuple[float, ...] = ()  # every round trip of the phase, seconds


PROFILE: Path | None = None  # --profile: py-spy records the server during each load phase, here


def profiler(server: LiveServer, label: str, seconds: float) -> subprocess.Popen[bytes] | None:
    """py-spy recording ``server`` for ``seconds`` (collapsed stacks per phase in :data:`PROFILE`), if asked."""
    if PROFILE is None or server.proc is None:
        return None
    out = PROFILE / f"{label.replace(' ', '-')}-{server.port}.txt"
    return subprocess.Popen([str(Path(sys.executable).with_name("py-spy")), "record", "--pid", str(server.proc.pid),
                             "--duration", str(int(seconds)), "--rate", "200", "--threads", "--format", "raw",
                             "--output", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


async def load(drivers: list, server: LiveServer, *, seconds: float, interval: float, label: str,  # type: ignore[type-arg]
               offered: int) -> Result:
    """One phase: every driver plays for ``seconds`` on fresh stats; what it measured."""
    stats = Stats()
    for driver in drivers:
        driver.stats = stats
    loop = asyncio.get_running_loop()
    spy = profiler(server, label, seconds)
    before, started = server.cpu_seconds(), loop.time()
    await asyncio.gather(*(d.play(started + seconds, interval) for d in drivers))
    after = server.cpu_seconds()
    if spy is not None:
        await asyncio.to_thread(spy.wait)
    trips = [rtt for _, rtt in stats.round_trips]
    cpu = None if before is None or after is None or not trips else (after - before) / len(trips)
    sent = len(trips) + sum(stats.errors.values())
    return Result(label, offered, sent, len(trips), percentile(trips, 0.5), percentile(trips, 0.99), cpu,
                  dict(stats.errors), tuple(trips))


async def bench(env: dict[str, str], log_dir: Path, *, runs: int, rate: float, seconds: float,
                rounds: int) -> list[tuple[Result, Result]]:
    """Both servers up, both sets of clients connected; then ``rounds`` rounds, each the arcade's phase then the
    echo's (``seconds / rounds`` each), so that a stall of the machine falls in one round of one side, not in
    a whole side: the ratios are taken round by round."""
    interval = runs / rate
    phase = seconds / rounds
    offered = int(rate * phase)
    with running(env, 1, log_dir=log_dir) as (server,), \
            running(env, 1, log_dir=log_dir, app=ECHO_APP, health=ECHO_HEALTH) as (echo,):
        stats = Stats()  # the set-up's: a driver that failed to set up is counted there and left out
        arcade_runs = await set_up_all([ArcadeRun(i, server, stats) for i in range(runs)], SET_UP_AT_ONCE, stats)
        pairs = await set_up_all([EchoPair(i, echo.http, echo.http, stats, TIMEOUT) for i in range(runs // 2)],
                                 SET_UP_AT_ONCE, stats)
        if stats.errors:
            print(f"set-up failures (left out): {dict(stats.errors)}", file=sys.stderr)
        results = []
        try:
            for round_ in range(1, rounds + 1):
                arcade = await load(arcade_runs, server, seconds=phase, interval=interval,
                                    label=f"arcade moves, round {round_}", offered=offered)
                bare = await load(pairs, echo, seconds=phase, interval=interval / 2, label=f"echo, round {round_}",
                                  offered=offered)
                results.append((arcade, bare))
        finally:
            everyone: list[ArcadeRun | EchoPair] = [*arcade_runs, *pairs]
            await asyncio.gather(*(d.close() for d in everyone))
    return results


def ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a is not None and b else None


def report(title: str, rounds: list[tuple[Result, Result]]) -> str:
    lines = [f"{title}", "", "| | offered | sent | done | p50 ms | p99 ms | server CPU ms per move/message | errors |",
             "|---|---|---|---|---|---|---|---|"]
    for r in (r for pair in rounds for r in pair):
        cpu = "?" if r.cpu_per is None else f"{r.cpu_per * 1000:.2f}"
        shown = f"{r.done} ({100 * r.done / max(1, r.offered, r.sent):.1f}%)"
        lines.append(f"| {r.label} | {r.offered} | {r.sent} | {shown} | "
                     f"{r.p50 * 1000:.1f} | {r.p99 * 1000:.1f} | {cpu} | {r.errors or '-'} |")
    offered = sum(max(a.offered, a.sent) for a, _ in rounds)
    done = sum(a.done for a, _ in rounds)
    p99s = [x for x in (ratio(a.p99, e.p99) for a, e in rounds) if x is not None]
    cpus = [x for x in (ratio(a.cpu_per, e.cpu_per) for a, e in rounds) if x is not None]
    pooled = [percentile([t for pair in rounds for t in pair[side].trips], 0.99) for side in (0, 1)]
    lines.append(f"\nall rounds pooled: arcade p99 {pooled[0] * 1000:.1f} ms, echo p99 {pooled[1] * 1000:.1f} ms "
                 f"(ratio {pooled[0] / pooled[1] if pooled[1] else float('nan'):.2f})")
    lines.append(f"arcade done {100 * done / max(1, offered):.1f}% (target ≥ 99); median of the rounds' ratios: "
                 f"p99 {statistics.median(p99s) if p99s else float('nan'):.2f} (target ≤ 2), CPU "
                 f"{statistics.median(cpus) if cpus else float('nan'):.2f} (target ≤ 1.5); the rounds' p99 ratios "
                 + ", ".join(f"{x:.2f}" for x in p99s))
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=400.0, help="moves a second offered on PostgreSQL + Redis")
    parser.add_argument("--embedded-rate", type=float, default=200.0, help="moves a second offered embedded")
    parser.add_argument("--seconds", type=float, default=30.0, help="each side's seconds of play, in all")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, each the arcade's phase then the echo's")
    parser.add_argument("--only", choices=["embedded", "postgres"], help="one configuration of the two")
    parser.add_argument("--profile", type=Path, help="a directory: py-spy records the server in each load phase")
    args = parser.parse_args()
    global PROFILE
    PROFILE = args.profile
    limits = {"ARCADE_RUNS_PER_HOUR_PER_PLAYER": UNLIMITED, "ARCADE_RUNS_PER_HOUR_PER_ADDRESS": UNLIMITED,
              "ARCADE_MOVES_PER_SECOND_PER_RUN": UNLIMITED, "GUESTS_PER_HOUR_PER_ADDRESS": UNLIMITED,
              "LOG_LEVEL": "WARNING"}
    with tempfile.TemporaryDirectory(prefix="bench-arcade-") as tmp:
        log_dir = Path(tmp)
        env = server_env(SQLITE_PATH=str(log_dir / "db.sqlite3"), **limits)
        out = []
        if args.only != "postgres":
            migrate(env)
            out.append(report(f"embedded, one process, {args.runs} runs at {args.embedded_rate:g} moves/s",
                              asyncio.run(bench(env, log_dir, runs=args.runs, rate=args.embedded_rate,
                                                seconds=args.seconds, rounds=args.rounds))))
        if args.only != "embedded" and os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL"):
            with postgres_database(os.environ["DATABASE_URL"], prefix="bench_arcade") as url:
                env = server_env(DATABASE_URL=url, REDIS_URL=os.environ["REDIS_URL"],
                                 CHANNEL_PREFIX=f"a{uuid.uuid4().hex[:8]}", **limits)
                out.append(report(f"PostgreSQL + Redis, one process, {args.runs} runs at {args.rate:g} moves/s",
                                  asyncio.run(bench(env, log_dir, runs=args.runs, rate=args.rate,
                                                    seconds=args.seconds, rounds=args.rounds))))
    print("\n\n".join(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
