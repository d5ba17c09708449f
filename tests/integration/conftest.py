"""The pair of servers that the modules marked ``tests.pairkit.SHARED`` share (tests/pairkit.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.livekit import LiveServer
from tests.pairkit import SharedPair, postgres_pair


@pytest.fixture(scope="session")
def _postgres_pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, tuple[LiveServer, ...]]]:
    with postgres_pair(tmp_path_factory.mktemp("postgres-pair")) as pair:
        yield pair


@pytest.fixture(scope="module")
def shared_pair(_postgres_pair: tuple[str, tuple[LiveServer, ...]]) -> SharedPair:
    """The run's (the worker's) two servers on PostgreSQL + Redis, as this module sees them."""
    return SharedPair.seen_from_a_module(*_postgres_pair)
