"""Real server processes for integration tests: the harness (``harness/``) with the tests' own settings.

Nothing here is faked: each server is ``daphne config.asgi:application`` in its own process, talking to
the database and channel layer named in its environment. The kit itself lives in ``harness/`` (the
benchmarks use it too); this module adds what only the tests want of a server.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator
from pathlib import Path

from harness import server as _server
from harness.database import postgres_database, sqlite_database
from harness.device import Device
from harness.lobby import LobbySocket
from harness.player import PlayerSocket
from harness.ports import free_port
from harness.room import RoomSocket
from harness.server import (
    BIN,
    LOG_ERROR,
    ROOM_QUOTAS,
    ROOT,
    LiveServer,
    migrate,
    read_metric,
    running,
    terminate,
    wait_healthy,
)

__all__ = [
    "BIN", "LOG_ERROR", "ROOM_QUOTAS", "ROOT", "Device", "LiveServer", "LobbySocket", "PlayerSocket", "RoomSocket",
    "free_port",
    "migrate", "postgres_database", "postgres_redis_servers", "read_metric", "running", "server_env", "sqlite_database",
    "terminate",
    "wait_healthy",
]

# Debug pages on errors, and the CPU thinking briefly: the tests wait for its moves (and the analysis
# board's answers: 100 ms of CPU at most, so waiting on a position asks nothing more). The live tests
# register their accounts from one address, on a server kept from test to test too: no registration limit.
# Passwords hashed quickly, as in the tests' own process (tests/conftest.py).
TEST_SETTINGS = {
    "DEBUG": "1", "CPU_TIME_SCALE": "0.05", "ANALYSIS_BOARD_BUDGET_MS": "100", "ANALYSIS_BOARD_MAX_MS": "100",
    "REGISTRATIONS_PER_MINUTE_PER_ADDRESS": str(10**9), "REGISTRATIONS_PER_DAY_PER_ADDRESS": str(10**9),
    "GUESTS_PER_HOUR_PER_ADDRESS": str(10**9), "ARENA_ACTIONS_PER_MINUTE_PER_ADDRESS": str(10**9),
    "PASSWORD_HASHERS": "django.contrib.auth.hashers.MD5PasswordHasher",
}


def server_env(**overrides: str) -> dict[str, str]:
    """A test server's environment: the harness's (``harness.server.server_env``) with ``TEST_SETTINGS``,
    then ``overrides``."""
    return _server.server_env(**{**TEST_SETTINGS, **overrides})


@contextlib.contextmanager
def postgres_redis_servers(log_dir: Path, count: int = 2, **settings: str) -> Iterator[tuple[LiveServer, ...]]:
    """``count`` test servers on a throwaway PostgreSQL database (of ``DATABASE_URL``'s server) and on
    ``REDIS_URL`` with a channel prefix of their own (and these ``settings`` in their environment),
    stopped afterwards."""
    with postgres_database(os.environ["DATABASE_URL"]) as url:
        env = server_env(DATABASE_URL=url, REDIS_URL=os.environ["REDIS_URL"], CHANNEL_PREFIX=f"t{uuid.uuid4().hex[:8]}",
                         **settings)
        with running(env, count, log_dir=log_dir) as servers:
            yield servers
