"""The suite: the echo baseline and the server side by side in each configuration (the embedded default,
PostgreSQL + Redis on one and two processes), idle sockets and a spectator storm; and the servers it runs.

Every configuration gets servers and a database of its own (``harness.database``), started here.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.bench.echo import ECHO_APP, ECHO_HEALTH
from harness.bench.report import Row, row_of
from harness.bench.scenarios import echo_phases, game_phases, idle_cost, spectator_storm
from harness.bench.stats import CpuReader
from harness.database import is_postgres, postgres_database, sqlite_database
from harness.server import LiveServer, lifted_quotas, log_errors, running, server_env


@dataclass(frozen=True, slots=True)
class SuiteSize:
    """How much load each part offers (``QUICK``: small numbers, to try the suite out)."""

    games: int = 1000  # the paced run of target 1
    paced_rate: float = 100.0
    saturate_games: int = 200
    seconds: float = 20.0
    embedded_games: int = 200
    embedded_rate: float = 200.0
    idle_sockets: int = 2000
    storm_joins: int = 300


QUICK = SuiteSize(games=100, saturate_games=50, seconds=8.0, embedded_games=50, embedded_rate=50.0,
                  idle_sockets=200, storm_joins=60)
PARTS = ("embedded", "pg1", "pg2", "storm", "idle")


def bench_env(**overrides: str) -> dict[str, str]:
    """A benchmarked server's environment: the harness's, logging warnings only, the room quotas lifted
    (all the load comes from one address), then ``overrides``."""
    return server_env(**{"LOG_LEVEL": "WARNING", **lifted_quotas(), **overrides})


def services() -> tuple[str, str] | None:
    """PostgreSQL's and Redis's URLs from ``DATABASE_URL`` and ``REDIS_URL``; None unless both are set."""
    pg, redis = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    return (pg, redis) if is_postgres(pg) and redis else None


@contextlib.contextmanager
def configured_env(workdir: Path, *, embedded: bool = False) -> Iterator[dict[str, str]]:
    """A server environment on a database of its own: a throwaway database beside ``DATABASE_URL`` if that
    is PostgreSQL, else a fresh SQLite file in ``workdir``; with ``REDIS_URL`` (under a fresh channel
    prefix) if set, else the in-memory layer. With ``embedded``: SQLite and the in-memory layer."""
    pg = "" if embedded else os.environ.get("DATABASE_URL", "")
    redis = "" if embedded else os.environ.get("REDIS_URL", "")
    layer = {"REDIS_URL": redis, "CHANNEL_PREFIX": f"bench{uuid.uuid4().hex[:6]}"} if redis else {}
    if not is_postgres(pg):
        yield bench_env(SQLITE_PATH=sqlite_database(workdir), **layer)
        return
    with postgres_database(pg, prefix="bench") as url:
        yield bench_env(DATABASE_URL=url, **layer)


def describe(env: dict[str, str]) -> str:
    """What a server of ``env`` runs on, in words."""
    database = "PostgreSQL" if env.get("DATABASE_URL") else "SQLite file"
    return f"daphne on {database}, {'Redis' if env.get('REDIS_URL') else 'in-memory layer'}"


@contextlib.contextmanager
def servers(workdir: Path, env: dict[str, str], count: int, *, echo: bool = False) -> Iterator[tuple[LiveServer, ...]]:
    """``count`` started servers of ``env`` (the echo baseline with ``echo``), logging into ``workdir``;
    stopped afterwards. The database is migrated already."""
    workdir.mkdir(parents=True, exist_ok=True)
    if echo:
        with running(env, count, log_dir=workdir, app=ECHO_APP, health=ECHO_HEALTH, name="echo") as started:
            yield started
    else:
        with running(env, count, log_dir=workdir) as started:
            yield started


def sum_cpu(started: tuple[LiveServer, ...]) -> CpuReader:
    """A reader of the CPU seconds of all ``started`` servers together (None if one is not known)."""
    def total() -> float | None:
        values = [x.cpu_seconds() for x in started]
        return None if any(v is None for v in values) else sum(v for v in values if v is not None)

    return total


def run_suite(size: SuiteSize, workdir: Path, parts: tuple[str, ...] = PARTS) -> tuple[list[Row], dict[str, Any]]:
    """Every configuration in turn (or those in ``parts``); the table rows and the other figures."""
    rows: list[Row] = []
    extra: dict[str, Any] = {}
    if "embedded" in parts:
        _embedded(size, workdir, rows)
    if services() is None:
        print("DATABASE_URL (PostgreSQL) and REDIS_URL are not set: the other configurations are skipped")
        return rows, extra
    _postgres(size, workdir, parts, rows, extra)
    return rows, extra


def _embedded(s: SuiteSize, workdir: Path, rows: list[Row]) -> None:
    """1. The embedded default: one process, a SQLite file, the in-memory layer."""
    print("== embedded default (SQLite, in-memory layer), one process", flush=True)
    (workdir / "embedded").mkdir(parents=True, exist_ok=True)
    with configured_env(workdir / "embedded", embedded=True) as env, servers(workdir / "embedded", env, 1) as (game,), \
            servers(workdir / "embedded-echo", env, 1, echo=True) as (echo,):
        [e] = asyncio.run(echo_phases((echo.http, echo.http), s.embedded_games,
                                      [(s.embedded_rate, s.seconds)], echo.cpu_seconds, "echo"))
        rows.append(row_of("embedded, 1 process", f"echo, {s.embedded_games} pairs", s.embedded_rate, e))
        [g] = asyncio.run(game_phases(game.http, None, s.embedded_games, [(s.embedded_rate, s.seconds)],
                                      game.cpu_seconds, "game"))
        rows.append(row_of("embedded, 1 process", f"game, {s.embedded_games} games", s.embedded_rate, g,
                           f"server-log errors {len(game.log_errors())}"))


def _postgres(s: SuiteSize, workdir: Path, parts: tuple[str, ...], rows: list[Row], extra: dict[str, Any]) -> None:
    """2. and 3. PostgreSQL + Redis on one process (with the storm) and on two; then idle sockets."""
    for processes in (1, 2):
        if f"pg{processes}" not in parts and not (processes == 1 and "storm" in parts):
            continue
        label = f"PostgreSQL + Redis, {processes} process{'es' if processes > 1 else ''}"
        print(f"== {label}", flush=True)
        with configured_env(workdir) as env, servers(workdir / f"pg{processes}", env, processes) as games, \
                servers(workdir / f"pg{processes}-echo", env, processes, echo=True) as echoes:
            other = games[-1].http if processes > 1 else None
            echo_urls = (echoes[0].http, echoes[-1].http)
            cpu, echo_cpu = sum_cpu(games), sum_cpu(echoes)
            if processes == 1 and "storm" in parts:
                print("== spectator storm", flush=True)
                extra["storm"] = asyncio.run(spectator_storm(games[0].http, s.storm_joins, 3.0))
            if f"pg{processes}" not in parts:
                continue
            if processes == 1:
                [e] = asyncio.run(echo_phases(echo_urls, s.games, [(s.paced_rate, s.seconds)], echo_cpu, "echo"))
                rows.append(row_of(label, f"echo, {s.games} pairs", s.paced_rate, e))
                [g] = asyncio.run(game_phases(games[0].http, other, s.games, [(s.paced_rate, s.seconds)], cpu,
                                              "game"))
                rows.append(row_of(label, f"game, {s.games} games", s.paced_rate, g))
            e_paced, e_sat = asyncio.run(echo_phases(
                echo_urls, s.saturate_games, [(s.paced_rate, s.seconds), (0, s.seconds)], echo_cpu, "echo"))
            rows.append(row_of(label, f"echo, {s.saturate_games} pairs", s.paced_rate, e_paced))
            rows.append(row_of(label, f"echo, {s.saturate_games} pairs", 0, e_sat))
            g_paced, g_sat = asyncio.run(game_phases(
                games[0].http, other, s.saturate_games, [(s.paced_rate, s.seconds), (0, s.seconds)], cpu, "game"))
            rows.append(row_of(label, f"game, {s.saturate_games} games", s.paced_rate, g_paced))
            rows.append(row_of(label, f"game, {s.saturate_games} games", 0, g_sat,
                               f"server-log errors {sum(len(log_errors(x.log_path)) for x in games)}"))
    if "idle" in parts:
        print("== idle sockets", flush=True)
        with configured_env(workdir) as env, servers(workdir / "idle", env, 1) as (server,):
            rss, cpu_share = asyncio.run(idle_cost(server, s.idle_sockets, settle=20, measure=30))
            extra["idle"] = {"sockets": s.idle_sockets, "rss_per_1000": rss, "cpu_per_1000": cpu_share}
