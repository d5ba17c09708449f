"""What Linux's /proc says about a process: its CPU time, its resident memory, its threads, its children.

Each reader raises ``OSError`` when the process is gone (or /proc is missing); callers that measure a
server they may not have started catch it.
"""

from __future__ import annotations

import contextlib
import os
from collections import Counter
from pathlib import Path

PROC = Path("/proc")


def _stat_fields(pid: int) -> list[str]:
    """The fields of /proc/PID/stat after ``(comm)``, which may itself hold spaces or parentheses."""
    return (PROC / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time used so far by process ``pid``, in seconds."""
    fields = _stat_fields(pid)
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(pid: int) -> float:
    """User + system CPU time used so far by process ``pid`` and every process below it: the living ones'
    own, and the ended ones' as their parents hold it once they have reaped them (``cutime``, ``cstime``).
    A descendant that ends between two readings is counted once, in its parent's, as soon as it is reaped."""
    ticks = 0
    for each in (pid, *(child for child, _ in descendants(pid))):
        try:
            fields = _stat_fields(each)
        except OSError:
            if each == pid:
                raise
            continue
        ticks += sum(int(x) for x in fields[11:15])
    return ticks / os.sysconf("SC_CLK_TCK")


def rss_bytes(pid: int) -> int:
    """The resident memory of process ``pid`` (``VmRSS``), in bytes."""
    status = (PROC / str(pid) / "status").read_text()
    return next(int(line.split()[1]) * 1024 for line in status.splitlines() if line.startswith("VmRSS:"))


def thread_count(pid: int) -> int:
    """How many threads process ``pid`` runs right now (``Threads``)."""
    status = (PROC / str(pid) / "status").read_text()
    return next(int(line.split()[1]) for line in status.splitlines() if line.startswith("Threads:"))


def thread_names(pid: int) -> Counter[str]:
    """How many threads process ``pid`` runs right now, by the name the kernel knows each by (``comm``: a
    server names its threads by kind, ``common.threads``); a thread that ends meanwhile is left out."""
    names: Counter[str] = Counter()
    for task in (PROC / str(pid) / "task").iterdir():
        with contextlib.suppress(OSError):
            names[(task / "comm").read_text().rstrip("\n")] += 1
    return names


def child_pids(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` right now (those that exit meanwhile are left out)."""
    found = []
    for entry in PROC.iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if int(_stat_fields(int(entry.name))[1]) == pid:
                    found.append(int(entry.name))
    return found


def command_line(pid: int) -> bytes:
    """The raw command line of process ``pid`` (NUL-separated arguments)."""
    return (PROC / str(pid) / "cmdline").read_bytes()


def start_time(pid: int) -> int:
    """When process ``pid`` started (clock ticks since boot): with its pid, names it even after a reuse."""
    return int(_stat_fields(pid)[19])


def descendants(pid: int) -> list[tuple[int, int]]:
    """The processes below ``pid`` right now (children, theirs, ...), as (pid, ``start_time``)."""
    found: list[tuple[int, int]] = []
    todo = [pid]
    while todo:
        for child in child_pids(todo.pop()):
            with contextlib.suppress(OSError):
                found.append((child, start_time(child)))
                todo.append(child)
    return found


def kill_if_same(pid: int, started: int, sig: int) -> None:
    """Send ``sig`` to ``pid`` if it is still the process that started at ``started`` (not a reused pid)."""
    with contextlib.suppress(OSError):
        if start_time(pid) == started:
            os.kill(pid, sig)
