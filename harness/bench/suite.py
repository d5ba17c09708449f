"""The suite: the echo baseline and the server side by side in each configuration (the embedded default,
PostgreSQL + Redis on one and two processes), idle sockets, a spectator storm and an arena; and the servers
it runs.

Every configuration gets servers and a database of its own (``harness.database``), started here.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.bench.arena import ARENA_ENV, run_arena
from harness.bench.echo import ECHO_APP, ECHO_HEALTH, REFERENCE_ECHOES
from harness.bench.report import Row, row_of
from harness.bench.scenarios import echo_phases, game_phases, idle_cost, spectator_storm
from harness.bench.stats import CpuReader, DropReader, cpu_not_measured, drops_not_counted
from harness.database import is_postgres, postgres_database, sqlite_database
from harness.server import LiveServer, lifted_quotas, log_errors, running, server_env


@dataclass(frozen=True, slots=True)
class SuiteSize:
    """How much load each part offers (``QUICK``: small numbers, to try the suite out)."""

    games: int = 2000  # the paced run of one process (and its set-up: the first 1,000 games are timed)
    paced_rate: float = 200.0
    saturate_games: int = 200
    two_rate: float = 400.0  # the paced run of two processes
    seconds: float = 20.0
    embedded_games: int = 200
    embedded_rate: float = 200.0
    idle_sockets: int = 10000
    idle_settle: float = 20.0  # seconds the idle sockets are held before their cost is measured ...
    idle_measure: float = 40.0  # ... and measured: all of them should still be open after the minute
    storm_joins: int = 300
    arena_players: int = 500
    arena_seconds: float = 60.0


QUICK = SuiteSize(games=100, saturate_games=50, two_rate=100.0, seconds=8.0, embedded_games=50, embedded_rate=50.0,
                  idle_sockets=200, idle_settle=5.0, idle_measure=10.0, storm_joins=60, arena_players=40,
                  arena_seconds=15.0)
PARTS = ("embedded", "pg1", "reference", "pg2", "storm", "idle", "arena")
# Parts run only when named in --only: idle sockets whose devices each have a player (in their group).
OPTIONAL_PARTS = ("idle-players",)


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
def servers(workdir: Path, env: dict[str, str], count: int, *, echo: bool = False, runner: str = "daphne",
            app: str = ECHO_APP) -> Iterator[tuple[LiveServer, ...]]:
    """``count`` started servers of ``env`` (an echo with ``echo``: ``app`` run by ``runner``), logging into
    ``workdir``; stopped afterwards. The database is migrated already."""
    workdir.mkdir(parents=True, exist_ok=True)
    if echo:
        with running(env, count, log_dir=workdir, app=app, health=ECHO_HEALTH, name=f"echo-{runner}",
                     runner=runner) as started:
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


def open_files_for(sockets: int) -> None:
    """Raise this process's open-file limit (which the servers it starts inherit) to hold ``sockets``
    sockets and a margin, as far as the hard limit allows; say so if it does not."""
    needed = sockets + 500
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < needed:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(needed, hard), hard))
    if hard < needed:
        print(f"  the open-file limit is {hard}: {sockets} sockets need {needed} (ulimit -n)", flush=True)


ROUND_TRIPS = "fourinarow_db_round_trips_total"


def sum_trips(started: tuple[LiveServer, ...]) -> CpuReader:
    """A reader of the PostgreSQL round trips of all ``started`` servers together (their ``/metrics``; None
    on SQLite, or if one cannot be read)."""
    if not started or not started[0].env.get("DATABASE_URL"):
        return cpu_not_measured

    def total() -> float | None:
        try:
            return sum(x.metric(ROUND_TRIPS) for x in started)
        except (OSError, AssertionError):
            return None

    return total


DROP_PATHS = ("held", "locked", "ended")


def sum_drops(started: tuple[LiveServer, ...]) -> DropReader:
    """A reader of the drops landed on all ``started`` servers and their PostgreSQL round trips, by path
    (``fourinarow_drops_total`` and ``fourinarow_drop_round_trips_total``; None on SQLite, or if one cannot
    be read)."""
    if not started or not started[0].env.get("DATABASE_URL"):
        return drops_not_counted

    def total() -> dict[str, tuple[float, float]] | None:
        try:
            return {path: (sum(x.metric("fourinarow_drops_total", path=path) for x in started),
                           sum(x.metric("fourinarow_drop_round_trips_total", path=path) for x in started))
                    for path in DROP_PATHS}
        except (OSError, AssertionError):
            return None

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
    """2. and 3. PostgreSQL + Redis on one process (with the storm and the reference echoes) and on two;
    then idle sockets."""
    if {"pg1", "storm", "reference"} & set(parts):
        _one_process(s, workdir, parts, rows, extra)
    if "pg2" in parts:
        _two_processes(s, workdir, rows)
    if "idle" in parts:
        print(f"== {s.idle_sockets} idle sockets", flush=True)
        open_files_for(s.idle_sockets)
        with configured_env(workdir) as env, servers(workdir / "idle", env, 1) as (server,):
            extra["idle"] = asyncio.run(idle_cost(server, s.idle_sockets, settle=s.idle_settle,
                                                  measure=s.idle_measure))
    if "idle-players" in parts:
        print("== idle sockets, each of a player", flush=True)
        with configured_env(workdir) as env, servers(workdir / "idle-players", env, 1) as (server,):
            extra["idle_players"] = asyncio.run(idle_cost(server, s.idle_sockets, settle=s.idle_settle,
                                                          measure=s.idle_measure, players=True))
    if "arena" in parts:
        print(f"== an arena of {s.arena_players} players", flush=True)
        with configured_env(workdir) as base:
            env = {**base, **ARENA_ENV}
            with servers(workdir / "arena", env, 1) as (server,):
                extra["arena"] = asyncio.run(run_arena(server, env, s.arena_players, s.arena_seconds))


ONE, TWO = "PostgreSQL + Redis, 1 process", "PostgreSQL + Redis, 2 processes"


def _one_process(s: SuiteSize, workdir: Path, parts: tuple[str, ...], rows: list[Row], extra: dict[str, Any]) -> None:
    """One process: the storm, 1,000 games paced, 200 games paced and saturated, each beside the echo."""
    print(f"== {ONE}", flush=True)
    with configured_env(workdir) as env, servers(workdir / "pg1", env, 1) as (game,), \
            servers(workdir / "pg1-echo", env, 1, echo=True) as (echo,):
        if "storm" in parts:
            print("== spectator storm", flush=True)
            extra["storm"] = asyncio.run(spectator_storm(game.http, s.storm_joins, 3.0, game.cpu_seconds))
        if "pg1" in parts:
            [e] = asyncio.run(echo_phases((echo.http, echo.http), s.games, [(s.paced_rate, s.seconds)],
                                          echo.cpu_seconds, "echo"))
            rows.append(row_of(ONE, f"echo, {s.games} pairs", s.paced_rate, e))
            [g] = asyncio.run(game_phases(game.http, None, s.games, [(s.paced_rate, s.seconds)], game.cpu_seconds,
                                          "game", sum_trips((game,)), sum_drops((game,))))
            rows.append(row_of(ONE, f"game, {s.games} games", s.paced_rate, g,
                               f"server-log errors {len(game.log_errors())}"))
            _paced_and_saturated(s, (echo,), (game,), s.paced_rate, ONE, rows)
        if "reference" in parts:
            for label, runner, app in REFERENCE_ECHOES:
                with servers(workdir / f"pg1-{runner}", env, 1, echo=True, runner=runner, app=app) as (ref,):
                    phases = [(s.paced_rate, s.seconds), (0, s.seconds)]
                    for rate, stats in zip((s.paced_rate, 0), asyncio.run(echo_phases(
                            (ref.http, ref.http), s.saturate_games, phases, ref.cpu_seconds, label)), strict=True):
                        rows.append(row_of(ONE, f"{label}, {s.saturate_games} pairs", rate, stats))


def _two_processes(s: SuiteSize, workdir: Path, rows: list[Row]) -> None:
    """Two processes, the two players of each game on different ones: paced at ``two_rate``, saturated."""
    print(f"== {TWO}", flush=True)
    with configured_env(workdir) as env, servers(workdir / "pg2", env, 2) as games, \
            servers(workdir / "pg2-echo", env, 2, echo=True) as echoes:
        _paced_and_saturated(s, echoes, games, s.two_rate, TWO, rows)


def _paced_and_saturated(s: SuiteSize, echoes: tuple[LiveServer, ...], games: tuple[LiveServer, ...], rate: float,
                         label: str, rows: list[Row]) -> None:
    """``saturate_games`` echo pairs, then as many games, paced at ``rate`` and then saturated; the players
    (and the echo's pair) on the first and the last of the servers."""
    phases = [(rate, s.seconds), (0, s.seconds)]
    e_paced, e_sat = asyncio.run(echo_phases((echoes[0].http, echoes[-1].http), s.saturate_games, phases,
                                             sum_cpu(echoes), "echo"))
    rows.append(row_of(label, f"echo, {s.saturate_games} pairs", rate, e_paced))
    rows.append(row_of(label, f"echo, {s.saturate_games} pairs", 0, e_sat))
    other = games[-1].http if len(games) > 1 else None
    g_paced, g_sat = asyncio.run(game_phases(games[0].http, other, s.saturate_games, phases, sum_cpu(games), "game",
                                             sum_trips(games), sum_drops(games)))
    rows.append(row_of(label, f"game, {s.saturate_games} games", rate, g_paced))
    rows.append(row_of(label, f"game, {s.saturate_games} games", 0, g_sat,
                       f"server-log errors {sum(len(log_errors(x.log_path)) for x in games)}"))
