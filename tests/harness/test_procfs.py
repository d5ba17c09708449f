"""A server's CPU as the benchmarks read it: its own and its workers' (harness.procfs.tree_cpu_seconds)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from harness.procfs import cpu_seconds, tree_cpu_seconds

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc is Linux's")

# 0.3 s of CPU, a line to say so, then waits until its input ends.
BURN = ("import sys, time\nend = time.process_time() + 0.3\nwhile time.process_time() < end: pass\n"
        "print(1, flush=True)\nsys.stdin.read()")


def workers_cpu() -> float:
    return tree_cpu_seconds(os.getpid()) - cpu_seconds(os.getpid())


def test_a_worker_s_cpu_counts_while_it_runs_and_once_it_has_ended():
    before = workers_cpu()
    worker = subprocess.Popen([sys.executable, "-c", BURN], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert worker.stdout is not None and worker.stdout.readline() == b"1\n"  # its 0.3 s spent, still running
        running = workers_cpu() - before
        assert running >= 0.28
    finally:
        worker.communicate(b"")
    ended = workers_cpu() - before  # reaped: in this process's children's time, not counted twice
    assert running <= ended < running + 0.1
