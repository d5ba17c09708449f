"""Real server processes for integration tests: the harness (``harness/``) with the tests' own settings.

Nothing here is faked: each server is ``daphne config.asgi:application`` in its own process, talking to
the database and channel layer named in its environment. The kit itself lives in ``harness/`` (the
benchmarks use it too); this module adds what only the tests want of a server.
"""

from __future__ import annotations

from harness import server as _server
from harness.database import postgres_database
from harness.device import Device
from harness.lobby import LobbySocket
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
    "BIN", "LOG_ERROR", "ROOM_QUOTAS", "ROOT", "Device", "LiveServer", "LobbySocket", "RoomSocket", "free_port",
    "migrate", "postgres_database", "read_metric", "running", "server_env", "terminate", "wait_healthy",
]

# Debug pages on errors, and the CPU thinking briefly: the tests wait for its moves.
TEST_SETTINGS = {"DEBUG": "1", "CPU_TIME_SCALE": "0.05"}


def server_env(**overrides: str) -> dict[str, str]:
    """A test server's environment: the harness's (``harness.server.server_env``) with ``TEST_SETTINGS``,
    then ``overrides``."""
    return _server.server_env(**{**TEST_SETTINGS, **overrides})
