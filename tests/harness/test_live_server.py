"""harness.server.LiveServer: a server that never becomes healthy is stopped by the failed start, not left
running behind the test (a browser test's server once ran on for 14 minutes after its start timed out)."""

from __future__ import annotations

import os

import pytest

from harness.server import LiveServer


def test_a_start_that_times_out_stops_the_process(tmp_path):
    silent = tmp_path / "silent.py"  # listens nowhere, answers nothing: never healthy
    silent.write_text("import time\ntime.sleep(120)\n")
    server = LiveServer(dict(os.environ), log_dir=tmp_path, app=str(silent), runner="python", name="silent")
    with pytest.raises(RuntimeError, match="did not become healthy"):
        server.start(timeout=0.5)
    assert server.proc is not None and server.proc.poll() is not None
