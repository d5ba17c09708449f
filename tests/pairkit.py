"""One pair of servers on PostgreSQL + Redis, shared by the integration modules that need no settings of their own.

A server's start costs 1.2-1.5 s of CPU (Django's set-up, daphne, its CPU worker): the modules marked
``SHARED`` (an ``xdist_group``: all of them on one worker, one after the other) use the same two servers
(the fixture ``shared_pair`` of tests/integration/conftest.py) instead of two each. Each test there has
accounts, rooms and arenas of its own, as on servers kept from test to test; each module reads the
servers' logs from where they stood when it began (``ModuleServer``), so that a module's "no error logged"
is about its own tests. Their settings are every sharing module's (``SHARED_SETTINGS``), and the room
quotas out of reach: the modules together create more rooms from one address than a module alone.

The pair lives as long as the group's tests run (``PairKeeper``): started for the first of them, stopped
after the last (the next test is none of them), as a module's servers were stopped after its last test.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from harness.server import lifted_quotas
from tests.livekit import LOG_ERROR, LiveServer, postgres_database, running, server_env

GROUP = "postgres_pair"
SHARED = pytest.mark.xdist_group(GROUP)
# Seekers wait as long as the pairing test takes (none expires meanwhile); arenas pair every second; the
# servers analyse no finished game (no test of these modules reads an analysis).
SHARED_SETTINGS = {"SEEK_MAX_WAIT_SECONDS": "600", "ARENA_WAVE_SECONDS": "1", "ANALYSIS_CPU_BUDGET_S": "0"}


class ModuleServer:
    """A shared server as one module sees it: the same process, its log's errors counted from the module's start."""

    def __init__(self, server: LiveServer) -> None:
        self.server = server
        self.log_start = server.log_path.stat().st_size if server.log_path.exists() else 0

    def __getattr__(self, name: str) -> Any:  # Any: whatever the server has
        return getattr(self.server, name)

    def log_errors(self) -> list[str]:
        """The lines logged since the module began that report an error (``LOG_ERROR``)."""
        with self.server.log_path.open("rb") as log:
            log.seek(self.log_start)
            text = log.read().decode(errors="replace")
        return [line for line in text.splitlines() if LOG_ERROR.search(line)]


@dataclass(frozen=True)
class SharedPair:
    url: str  # the servers' PostgreSQL database
    servers: tuple[ModuleServer, ModuleServer]


def is_shared(item: pytest.Item | None) -> bool:
    """Whether ``item`` is a test of the modules marked ``SHARED``."""
    mark = item.get_closest_marker("xdist_group") if item is not None else None
    return mark is not None and bool(mark.args) and mark.args[0] == GROUP


class PairKeeper:
    """The shared pair of a process (a worker): started when a test wants it, stopped by ``stop``."""

    def __init__(self, log_dir: Path) -> None:
        self.log_dir = log_dir
        self.running: contextlib.ExitStack | None = None
        self.pair: tuple[str, tuple[LiveServer, ...]] | None = None
        self.views: dict[tuple[str, int], ModuleServer] = {}

    def seen_from(self, module: str) -> SharedPair:
        """The pair (started now if it is not running) as the module named ``module`` sees it."""
        if self.pair is None:
            self.running = contextlib.ExitStack()
            self.pair = self.running.enter_context(postgres_pair(self.log_dir))
        url, (one, two) = self.pair
        views = tuple(self.views.setdefault((module, id(server)), ModuleServer(server)) for server in (one, two))
        return SharedPair(url, (views[0], views[1]))

    def stop(self) -> None:
        running, self.running, self.pair = self.running, None, None
        self.views.clear()
        if running is not None:
            running.close()


@contextlib.contextmanager
def postgres_pair(log_dir: Path) -> Iterator[tuple[str, tuple[LiveServer, ...]]]:
    """(a fresh PostgreSQL database's URL, two servers on it and on ``REDIS_URL`` with the shared settings)."""
    with postgres_database(os.environ["DATABASE_URL"]) as url:
        env = server_env(DATABASE_URL=url, REDIS_URL=os.environ["REDIS_URL"], CHANNEL_PREFIX=f"t{uuid.uuid4().hex[:8]}",
                         **lifted_quotas(), **SHARED_SETTINGS)
        with running(env, 2, log_dir=log_dir) as servers:
            yield url, servers
