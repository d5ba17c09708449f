"""One pair of servers on PostgreSQL + Redis, shared by the integration modules that need no settings of their own.

A server's start costs 1.2-1.5 s of CPU (Django's set-up, daphne, its CPU worker): the modules marked
``SHARED`` (an ``xdist_group``: all of them on one worker, one after the other) use the same two servers
(the fixture ``shared_pair`` of tests/integration/conftest.py) instead of two each. Each test there has
accounts, rooms and arenas of its own, as on servers kept from test to test; each module reads the
servers' logs from where they stood when it began (``ModuleServer``), so that a module's "no error logged"
is about its own tests. Their settings are every sharing module's (``SHARED_SETTINGS``), and the room
quotas out of reach: the modules together create more rooms from one address than a module alone.
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

SHARED = pytest.mark.xdist_group("postgres_pair")
# Seekers wait as long as the pairing test takes (none expires meanwhile); arenas pair every second; the
# servers analyse each finished game on a token budget (no test of these modules reads an analysis).
SHARED_SETTINGS = {"SEEK_MAX_WAIT_SECONDS": "600", "ARENA_WAVE_SECONDS": "1", "ANALYSIS_NODE_BUDGET": "1",
                   "ANALYSIS_TIME_BUDGET_S": "0"}


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

    @classmethod
    def seen_from_a_module(cls, url: str, servers: tuple[LiveServer, ...]) -> SharedPair:
        one, two = servers
        return cls(url, (ModuleServer(one), ModuleServer(two)))


@contextlib.contextmanager
def postgres_pair(log_dir: Path) -> Iterator[tuple[str, tuple[LiveServer, ...]]]:
    """(a fresh PostgreSQL database's URL, two servers on it and on ``REDIS_URL`` with the shared settings)."""
    with postgres_database(os.environ["DATABASE_URL"]) as url:
        env = server_env(DATABASE_URL=url, REDIS_URL=os.environ["REDIS_URL"], CHANNEL_PREFIX=f"t{uuid.uuid4().hex[:8]}",
                         **lifted_quotas(), **SHARED_SETTINGS)
        with running(env, 2, log_dir=log_dir) as servers:
            yield url, servers
