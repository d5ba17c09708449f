"""The benchmark's tables: a run's result, the suite's rows with the targets met or missed, written into
the docs between markers."""

from __future__ import annotations

import asyncio
import os
import platform
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.bench.game import LoadConfig
from harness.bench.stats import Stats, percentile
from harness.server import log_errors


@dataclass(slots=True)
class Row:
    """One line of the suite's table."""

    config: str
    scenario: str
    offered: str
    done: float  # moves (or echoes) per second
    p50: float  # seconds
    p99: float
    errors: int
    note: str = ""
    cpu_per_move: float | None = None  # server CPU seconds per move (or echo) done
    setup_seconds: float | None = None  # how long setting the games up took
    setup_1000: float | None = None  # how long until 1,000 of them were set up (None: fewer were)
    trips_per_move: float | None = None  # PostgreSQL round trips per move, less the servers' at rest
    client_errors: int = 0
    server_errors: int | None = None  # the server log's errors (None: not counted)
    drops: dict[str, tuple[float, float]] | None = None  # by path: a person's drops landed and their round trips

    def trips_per_drop(self, *paths: str) -> tuple[float, float] | None:
        """The drops landed by these paths and their round trips per drop (None: not counted, or none)."""
        if self.drops is None:
            return None
        count = sum(self.drops.get(path, (0.0, 0.0))[0] for path in paths)
        trips = sum(self.drops.get(path, (0.0, 0.0))[1] for path in paths)
        return (count, trips / count) if count else None


SERVER_ERRORS = "server-log errors "


def row_of(config: str, scenario: str, offered: float, stats: Stats, note: str = "") -> Row:
    """The table's line for a phase of ``stats`` (``offered``: moves per second, 0 or less: saturated;
    ``note`` may say ``server-log errors N``)."""
    rtts = [rtt for _, rtt in stats.round_trips]
    per_move = stats.server_cpu / len(rtts) if stats.server_cpu is not None and rtts else None
    cpu = "" if stats.server_cpu is None else f"server {stats.server_cpu / stats.elapsed:.0%}"
    per = "" if per_move is None else f"{per_move * 1000:.2f} ms CPU each"
    trips = stats.trips_per_move()
    per_trips = "" if trips is None else f"{trips:.2f} PostgreSQL round trips each (all the process's)"
    per_game = stats.setup_cpu_per_game()
    setup_cpu = "" if per_game is None else f" ({per_game * 1000:.0f} ms CPU a game)"
    setup = "" if stats.setup_seconds is None else f"set up in {stats.setup_seconds:.0f} s{setup_cpu}"
    kinds = "; ".join(f"{kind} x{count}" for kind, count in stats.errors.most_common(2))
    extra = ", ".join(x for x in (cpu, per, per_trips, f"client {stats.client_cpu / stats.elapsed:.0%}", setup, note,
                                  kinds) if x)
    server_errors = int(note.split(SERVER_ERRORS)[1].split()[0]) if SERVER_ERRORS in note else None
    return Row(config, scenario, "saturate" if offered <= 0 else f"{offered:g}/s",
               len(rtts) / stats.elapsed, percentile(rtts, 0.5), percentile(rtts, 0.99),
               sum(stats.errors.values()), extra, per_move, stats.setup_seconds, stats.setup_seconds_of(1000),
               trips, sum(stats.errors.values()), server_errors, stats.drops)


def suite_report(rows: list[Row], extra: dict[str, Any], command: str) -> str:
    """The suite's figures as Markdown: when and where, the table, and the targets side by side."""
    load = Path("/proc/loadavg").read_text().strip() if Path("/proc/loadavg").exists() else "unknown"
    lines = [
        f"Run {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on {platform.node()} "
        f"({os.cpu_count()} cores, {platform.python_implementation()} {platform.python_version()}), "
        f"`cat /proc/loadavg` at the end: `{load}`. Command: `{command}`.",
        "",
        "| configuration | load | offered | done/s | p50 ms | p99 ms | errors | CPU, notes |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(f"| {r.config} | {r.scenario} | {r.offered} | {r.done:.1f} | {r.p50 * 1000:.1f} | "
                     f"{r.p99 * 1000:.1f} | {r.errors} | {r.note} |")
    storm, idle = extra.get("storm"), extra.get("idle")
    if storm:
        joined = storm["joined"]
        lines += ["", f"Spectator storm: {joined} of {storm['joins']} sockets joined one room within 3 s "
                  f"({storm['failed']} failed) while its two players moved every 0.5 s: {storm['moves']} moves, "
                  f"p50 {storm['p50'] * 1000:.1f} ms, p99 {storm['p99'] * 1000:.1f} ms. The room's sockets received "
                  f"{storm['frames']} frames in all, {storm['room_frames']} of them whole rooms: "
                  f"{storm['room_frames'] / max(1, joined):.1f} room frames per join "
                  f"(one whole room per join to everyone would be {joined * (joined + 1) // 2})."
                  + ("" if storm.get("cpu") is None else
                     f" The server used {storm['cpu']:.2f} s of CPU meanwhile, joins and moves together.")]
    if idle:
        lines += ["", f"Idle sockets: {idle.sockets} sockets held as the page holds them cost "
                  f"{idle.rss_per_1000 / 1024:.0f} KiB of RSS and {idle.cpu_per_1000:.1%} of a core per 1,000; "
                  f"{idle.still_open} still open after {idle.held:.0f} s. The server at rest before they "
                  f"opened used {idle.at_rest:.2%} of a core."]
    if players := extra.get("idle_players"):
        lines += ["", f"Idle sockets of players: {players.sockets} sockets, each of a player of its own (so also "
                  f"in its player's group), cost {players.rss_per_1000 / 1024:.0f} KiB of RSS and "
                  f"{players.cpu_per_1000:.1%} of a core per 1,000."]
    if arena := extra.get("arena"):
        lines += ["", f"Arena: {arena['players']} players joined in {arena['join_seconds']:.0f} s, then the arena "
                  f"started; over {arena['seconds']:.0f} s, {arena['waves']} waves wrote {arena['pairs']} pairs (the "
                  f"first: {arena['first_wave_waiting']} waiting, {arena['first_wave_pairs']} pairs in "
                  f"{arena['first_wave_seconds']:.2f} s); standings frames {arena['per_socket_per_second']:.2f} a "
                  f"second a socket (at most {arena['per_socket_max_in_a_second']} in a second); "
                  f"{arena['server_errors']} server-log errors."]
    lines += ["", *target_lines(rows, extra)]
    return "\n".join(lines)


def _find(rows: list[Row], config: str, scenario: str, offered: str | None = None) -> Row | None:
    """The first row whose configuration and scenario start with these, offered ``offered`` (None: paced,
    at any rate)."""
    return next((r for r in rows if r.config.startswith(config) and r.scenario.startswith(scenario)
                 and (r.offered == offered if offered is not None else r.offered != "saturate")), None)


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def _ratio(game: float, echo: float) -> str:
    return f"{game / echo:.1f}x" if echo > 0 else "n/a"


def _offered(row: Row) -> float:
    return float(row.offered.rstrip("/s")) if row.offered.endswith("/s") else 0.0


def _no_error(row: Row) -> tuple[str, bool]:
    figure = f"{row.client_errors} client errors, " + (
        "server log not counted" if row.server_errors is None else f"{row.server_errors} in the server log")
    return figure, row.client_errors == 0 and row.server_errors == 0


def target_lines(rows: list[Row], extra: dict[str, Any]) -> list[str]:
    """Each target of issue 36, met or missed, with its figure (ratios to the echo of the same run)."""
    out = ["| target | figure | met |", "|---|---|---|"]

    def add(name: str, figure: str, met: bool | None) -> None:
        out.append(f"| {name} | {figure} | {'n/a' if met is None else ('yes' if met else 'NO')} |")

    one, two = "PostgreSQL + Redis, 1 process", "PostgreSQL + Redis, 2 processes"
    big = next((r for r in rows if r.config == one and r.scenario.startswith("game") and r.offered != "saturate"), None)
    big_echo = next((r for r in rows if r.config == one and r.scenario.startswith("echo") and big is not None
                     and r.scenario.split(", ")[1].split()[0] == big.scenario.split(", ")[1].split()[0]
                     and r.offered == big.offered), None)
    going_on = big.trips_per_drop("held", "locked") if big is not None else None
    if big is not None and going_on is not None:
        held, ended = big.trips_per_drop("held"), big.trips_per_drop("ended")
        share = 0.0 if held is None else held[0] / going_on[0]
        extra_figures = "".join([
            f"; {share:.0%} of them from the held room" + ("" if held is None else f" at {held[1]:.2f}"),
            "" if ended is None else f"; a drop that ends the game: {ended[1]:.1f}",
            "" if big.trips_per_move is None else f"; all the process's round trips: {big.trips_per_move:.2f} a move "
                                                  "(the games' starts included, its rate at rest taken off)"])
        add(f"a move is one round trip to PostgreSQL ({big.scenario}, {big.offered}: a person's drops that go on)",
            f"{going_on[1]:.2f} round trips a drop{extra_figures}", going_on[1] <= 1.05)
    g1, e1 = _find(rows, one, "game", "saturate"), _find(rows, one, "echo", "saturate")
    if g1 and e1 and g1.cpu_per_move is not None and e1.cpu_per_move is not None:
        add("server CPU per move ≤ 2x the echo's per message (1 process, saturated)",
            f"{_ms(g1.cpu_per_move)} vs echo {_ms(e1.cpu_per_move)} ({_ratio(g1.cpu_per_move, e1.cpu_per_move)})",
            g1.cpu_per_move <= 2 * e1.cpu_per_move)
    if big and big_echo:
        label = f"1 process, {big.scenario.split(', ')[1]} at {big.offered}"
        add(f"{label}: p50 ≤ 2x echo p50", f"{_ms(big.p50)} vs echo {_ms(big_echo.p50)} "
            f"({_ratio(big.p50, big_echo.p50)})", big.p50 <= 2 * big_echo.p50)
        add(f"{label}: p99 ≤ 2x echo p99 and ≤ 50 ms", f"{_ms(big.p99)} vs echo {_ms(big_echo.p99)} "
            f"({_ratio(big.p99, big_echo.p99)})", big.p99 <= 2 * big_echo.p99 and big.p99 <= 0.050)
        figure, clean = _no_error(big)
        add(f"{label}: no error", f"{big.done:.0f}/s done; {figure}", clean and big.done >= 0.95 * _offered(big))
    g2, e2 = _find(rows, two, "game"), _find(rows, two, "echo")
    if g2:
        echo = "" if e2 is None else f"; echo {e2.done:.0f}/s"
        add(f"2 processes, {g2.scenario.split(', ')[1]} at {g2.offered} offered: ≥ 95% done",
            f"{g2.done:.0f}/s ({g2.done / max(1e-9, _offered(g2)):.0%}){echo}", g2.done >= 0.95 * _offered(g2))
        add(f"2 processes at {g2.offered} offered: p99 ≤ 100 ms", _ms(g2.p99) + (
            "" if e2 is None else f" (echo {_ms(e2.p99)}, {_ratio(g2.p99, e2.p99)})"), g2.p99 <= 0.100)
    emb, emb_echo = _find(rows, "embedded", "game"), _find(rows, "embedded", "echo")
    if emb:
        figure, clean = _no_error(emb)
        add(f"embedded: {emb.scenario.split(', ')[1]} at {emb.offered}, no error", f"{emb.done:.0f}/s done; {figure}",
            clean and emb.done >= 0.95 * _offered(emb))
        if emb_echo:
            add("embedded: p99 ≤ 2x echo p99", f"{_ms(emb.p99)} vs echo {_ms(emb_echo.p99)} "
                f"({_ratio(emb.p99, emb_echo.p99)})", emb.p99 <= 2 * emb_echo.p99)
    if big and big.setup_seconds is not None:
        if big.setup_1000 is not None:
            add("1,000 games set up (guests, rooms, both seated, started) in ≤ 30 s",
                f"{big.setup_1000:.1f} s (all {big.scenario.split(', ')[1]}: {big.setup_seconds:.1f} s)",
                big.setup_1000 <= 30)
        else:
            add("1,000 games set up in ≤ 30 s", f"only {big.scenario.split(', ')[1]} set up: "
                f"{big.setup_seconds:.1f} s", None)
    storm = extra.get("storm")
    if storm and storm.get("cpu") is not None:
        per_join = storm["cpu"] / max(1, storm["joined"])
        add("a join ≤ 3 ms of CPU (storm CPU ÷ joins, the players' moves included)", _ms(per_join), per_join <= 0.003)
    if storm:  # (issue 21's, kept)
        add(f"storm: {storm['joins']} joins within 3 s, players' p99 ≤ 100 ms",
            f"{_ms(storm['p99'])} ({storm['moves']} moves; {storm['joined']} joined, {storm['failed']} failed)",
            storm["p99"] <= 0.100 and storm["failed"] == 0)
    idle = extra.get("idle")
    if idle:
        per_socket = idle.rss_per_1000 / 1000
        add(f"{idle.sockets} idle sockets: ≤ 24 KiB RSS each", f"{per_socket / 1024:.1f} KiB", per_socket <= 24 * 1024)
        add(f"{idle.sockets} idle sockets: ≤ 1% of a core per 1,000", f"{idle.cpu_per_1000:.2%}",
            idle.cpu_per_1000 <= 0.01)
        add("an idle server (no socket) ≤ 0.5% of a core", f"{idle.at_rest:.2%}", idle.at_rest <= 0.005)
        add(f"{idle.sockets} idle sockets: all still open after a minute",
            f"{idle.still_open} open after {idle.held:.0f} s", idle.still_open == idle.sockets and idle.held >= 60)
    arena = extra.get("arena")
    if arena:
        name = f"arena of {arena['players']}"
        first = arena["first_wave_seconds"]
        add(f"{name}: the first wave written within 2 s",
            f"{first:.2f} s for {arena['first_wave_pairs']} pairs of {arena['first_wave_waiting']} waiting",
            first <= 2.0 and arena["first_wave_waiting"] == arena["players"])
        if arena["wave_p99"] is not None:
            add(f"{name}: waves p99 ≤ 2 s", f"{arena['wave_p99']:.2f} s over {arena['waves']} waves (max "
                f"{arena['wave_max']:.2f} s)", arena["wave_p99"] <= 2.0)
        once = arena["once"]
        add(f"{name}: every game exactly once", f"{arena['games']} games; each in a room of its own: "
            f"{'yes' if once['distinct'] else 'no'}; a player in two at once: {once['overlaps']}; untold: "
            f"{once['untold']}{_oldest(once.get('oldest_untold'))}, told twice: {once['told_twice']}",
            arena["every_game_once"])
    return out


def _oldest(seconds: float | None) -> str:
    return "" if seconds is None else f" (the oldest written {seconds:.1f} s before the window closed)"


BEGIN_MARK = "<!-- bench-server: begin -->"
END_MARK = "<!-- bench-server: end -->"


def write_docs(report: str, path: Path, *, begin: str = BEGIN_MARK, end: str = END_MARK) -> None:
    """Put ``report`` between the markers in ``path`` (appended with them if they are missing); other
    benchmarks (scripts/bench_puzzles.py) pass markers of their own."""
    text = path.read_text() if path.exists() else ""
    block = f"{begin}\n{report}\n{end}"
    if begin in text and end in text:
        text = text.split(begin)[0] + block + text.split(end, 1)[1]
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    path.write_text(text)


def progress_printer(log_path: Path | None) -> Callable[[Stats], Awaitable[None]]:
    """A progress line every call: moves so far, the rate and p50 since the last, errors on both sides."""
    loop_state = {"last": 0.0, "count": 0}

    async def show(stats: Stats) -> None:
        now = asyncio.get_running_loop().time()
        assert stats.started_at is not None
        since = max(loop_state["last"], stats.started_at)
        window = stats.moves_between(since, now)
        rate = len(window) / max(1e-9, now - since)
        p50 = percentile(window, 0.5) * 1000
        server = len(log_errors(log_path)) if log_path is not None else "?"
        print(f"  {now - stats.started_at:5.1f} s  moves {len(stats.round_trips):6d}  {rate:6.1f}/s  "
              f"p50 {p50:6.1f} ms  errors {sum(stats.errors.values())}  server-log errors {server}", flush=True)
        loop_state["last"] = now

    return show


def result_table(config: LoadConfig, stats: Stats, server_errors: list[str] | None) -> str:
    """One run's figures as a Markdown table (``server_errors``: None when the server log was not watched)."""
    elapsed = stats.elapsed
    rtts = [rtt for _, rtt in stats.round_trips]
    rows = [
        ("games set up", f"{stats.games_set_up} / {config.games}"),
        ("set up in", "" if stats.setup_seconds is None else f"{stats.setup_seconds:.1f} s" + (
            "" if (per_game := stats.setup_cpu_per_game()) is None
            else f", server CPU {per_game * 1000:.1f} ms a game")),
        ("moves offered/s", f"{config.rate:.0f}"),
        ("moves done/s", f"{len(rtts) / elapsed:.1f}  ({len(rtts)} in {elapsed:.1f} s)"),
        ("round trip p50", f"{percentile(rtts, 0.5) * 1000:.1f} ms"),
        ("round trip p99", f"{percentile(rtts, 0.99) * 1000:.1f} ms"),
        ("round trip max", f"{max(rtts, default=float('nan')) * 1000:.1f} ms"),
        ("games restarted", str(stats.games_restarted)),
        ("rooms created beside", str(stats.rooms_created)),
        ("server CPU", "not known" if stats.server_cpu is None else f"{stats.server_cpu / elapsed:.0%} of a core"),
        ("server CPU per move", "not known" if stats.server_cpu is None or not rtts
         else f"{stats.server_cpu / len(rtts) * 1000:.2f} ms"),
        ("load generator CPU", f"{stats.client_cpu / elapsed:.0%} of a core"),
        ("client errors", str(sum(stats.errors.values()))),
    ]
    rows += [(f"  {kind}", str(count)) for kind, count in stats.errors.most_common()]
    rows.append(("server-log errors", "not watched" if server_errors is None else str(len(server_errors))))
    width = max(len(name) for name, _ in rows)
    lines = [f"| {'what'.ljust(width)} | value |", f"|{'-' * (width + 2)}|---|"]
    lines += [f"| {name.ljust(width)} | {value} |" for name, value in rows]
    return "\n".join(lines)
