"""Where the suite's time goes: each test's wall time and CPU time, its own process and what it spawned.

``pytest --cpu-times=PATH`` (also under pytest-xdist) writes one JSON line a test to PATH and prints the
top tests by CPU and by wall time. A test's CPU is that of the test process (all its threads) and of every
process below it (live servers, Playwright's driver, Chromium and its renderers, the fault tests' own
Redis and PostgreSQL), read from /proc before its setup and after its teardown: processes that end during
the test count through their parent's reaped-children times. Session fixtures count in the first test
that uses them. The system PostgreSQL and Redis serve the tests from outside this tree: not counted.
"""

from __future__ import annotations

import json
import os
import time
from collections import defaultdict
from pathlib import Path

import pytest

TICK = os.sysconf("SC_CLK_TCK")
GROUPS = (("chrom", "browser"), ("headless", "browser"), ("node", "playwright"), ("postgres", "services"),
          ("redis", "services"), ("initdb", "services"), ("nginx", "services"))


def _stat(pid: str) -> tuple[int, str, float, float] | None:
    """(parent pid, command name, its own CPU seconds, its reaped children's) of process ``pid``."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    comm = raw[raw.index("(") + 1:raw.rindex(")")]
    fields = raw[raw.rindex(")") + 2:].split()
    # fields[1] is the parent; utime, stime, cutime, cstime are fields 14-17 of stat, here 11-14.
    return (int(fields[1]), comm, (int(fields[11]) + int(fields[12])) / TICK,
            (int(fields[13]) + int(fields[14])) / TICK)


Snapshot = dict[str, tuple[str, float, float]]  # pid: (group, own CPU, reaped children's CPU)
KEY = pytest.StashKey[tuple[float, Snapshot]]()


def snapshot() -> Snapshot:
    """This process (group ``self``) and its live descendants, each with its group and CPU so far."""
    stats = {pid: s for pid in os.listdir("/proc") if pid.isdigit() and (s := _stat(pid)) is not None}
    children: dict[int, list[str]] = defaultdict(list)
    for pid, (ppid, *_) in stats.items():
        children[ppid].append(pid)
    me = str(os.getpid())
    tree: Snapshot = {me: ("self", *stats[me][2:])}
    todo = list(children[int(me)])
    while todo:
        pid = todo.pop()
        _, comm, own, reaped = stats[pid]
        tree[pid] = (next((name for prefix, name in GROUPS if comm.lower().startswith(prefix)), "servers"), own, reaped)
        todo += children[int(pid)]
    return tree


def spent(before: Snapshot, after: Snapshot) -> dict[str, float]:
    """CPU seconds between two snapshots by group; ``ended``: of processes that ended in between (counted
    through the reaped-children times of their parents, less what they had spent before)."""
    cpu: dict[str, float] = defaultdict(float)
    for pid, (group, own, reaped) in after.items():
        _, own0, reaped0 = before.get(pid, (group, 0.0, 0.0))
        cpu[group] += own - own0
        cpu["ended"] += reaped - reaped0
    cpu["ended"] -= sum(own + reaped for pid, (_, own, reaped) in before.items() if pid not in after)
    return {group: round(max(seconds, 0.0), 2) for group, seconds in cpu.items()}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--cpu-times", metavar="PATH", default=None,
                     help="write each test's wall and CPU time (its process and its children) to PATH (JSON lines)")


def pytest_configure(config: pytest.Config) -> None:
    """With --cpu-times, this process adopts the processes orphaned below it (a child subreaper: Chromium's
    renderers outlive their browser process at its end) and leaves them unreaped, their times kept."""
    if config.getoption("--cpu-times"):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.config.getoption("--cpu-times"):
        item.stash[KEY] = (time.monotonic(), snapshot())


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # type: ignore[no-untyped-def]
    report = yield
    if call.when == "teardown" and KEY in item.stash:
        started, before = item.stash[KEY]
        cpu = spent(before, snapshot())
        report.user_properties.append(("cpu", {"wall": round(time.monotonic() - started, 2),
                                               "cpu": round(sum(cpu.values()), 2), **cpu}))
    return report


_ROWS: list[dict[str, object]] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when != "teardown":
        return
    for name, value in report.user_properties:
        if name == "cpu":
            _ROWS.append({"test": report.nodeid, "worker": getattr(report, "node", None) and report.node.gateway.id,
                          **value})


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:  # type: ignore[no-untyped-def]
    path = config.getoption("--cpu-times")
    if not path or hasattr(config, "workerinput") or not _ROWS:
        return
    with open(path, "w") as out:
        for row in _ROWS:
            out.write(json.dumps(row) + "\n")
    total_cpu = sum(float(r["cpu"]) for r in _ROWS)  # type: ignore[arg-type]
    total_wall = sum(float(r["wall"]) for r in _ROWS)  # type: ignore[arg-type]
    tr = terminalreporter
    tr.write_sep("=", f"CPU per test: {len(_ROWS)} tests, {total_wall:.0f} s wall, {total_cpu:.0f} s CPU ({path})")
    for key in ("cpu", "wall"):
        tr.write_line(f"top 15 by {key}:")
        for row in sorted(_ROWS, key=lambda r: -float(r[key]))[:15]:  # type: ignore[arg-type]
            groups = " ".join(f"{g}={row[g]}" for g in sorted(row) if g not in {"test", "worker", "wall", "cpu"}
                              and row[g])
            tr.write_line(f"  {row['wall']:7.1f} s wall {row['cpu']:7.1f} s CPU  {row['test']}  [{groups}]")
