"""Threads named for the kernel by kind (common.threads), counted by name from /proc (harness.procfs)."""

from __future__ import annotations

import os
import sys
import threading
import time

import pytest

from common import threads
from harness.procfs import thread_names

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and prctl are Linux's")


def test_a_thread_started_after_the_hook_carries_its_python_name_cut_to_15_bytes():
    threads.name_os_threads()
    threads.name_os_threads()  # once is enough; twice changes nothing
    go, seen = threading.Event(), []

    def wait() -> None:
        seen.append(thread_names(os.getpid()))
        go.wait(10)

    workers = [threading.Thread(target=wait, name=name) for name in ("http-own_0", "a-very-long-thread-name")]
    for worker in workers:
        worker.start()
    try:
        while len(seen) < 2:
            threading.Event().wait(0.01)
        names = thread_names(os.getpid())
        assert names["http-own_0"] == 1 and names["a-very-long-thr"] == 1
    finally:
        go.set()
        for worker in workers:
            worker.join()
    # join() returns when Python is done with the thread; the kernel's task leaves /proc a moment later.
    deadline = time.monotonic() + 5
    while thread_names(os.getpid())["http-own_0"] and time.monotonic() < deadline:
        time.sleep(0.005)
    assert thread_names(os.getpid())["http-own_0"] == 0  # gone with its thread
