"""A database of a run's own: a throwaway PostgreSQL database beside a given one, or a SQLite file.

Runs never share rows: each test module and each benchmark configuration gets a fresh, migrated
database, and a PostgreSQL one is dropped afterwards (its open sessions ended).
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator
from pathlib import Path

from harness.server import migrate, server_env


def is_postgres(url: str) -> bool:
    """Whether ``url`` (a ``DATABASE_URL``) names a PostgreSQL server."""
    return url.startswith(("postgres://", "postgresql://"))


@contextlib.contextmanager
def postgres_database(base_url: str, *, prefix: str = "live") -> Iterator[str]:
    """The URL of a fresh, migrated database on the PostgreSQL server of ``base_url``; dropped afterwards.

    The server's ``postgres`` database must be reachable with ``base_url``'s credentials (to create it).
    """
    import psycopg

    server = base_url.rsplit("/", 1)[0]
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(server + "/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = f"{server}/{name}"
    try:
        migrate(server_env(DATABASE_URL=url))
        yield url
    finally:
        with psycopg.connect(server + "/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def sqlite_database(directory: Path) -> str:
    """The path of a fresh, migrated SQLite file in ``directory`` (for ``SQLITE_PATH``); the caller
    removes ``directory``."""
    path = directory / f"db-{uuid.uuid4().hex[:8]}.sqlite3"
    migrate(server_env(SQLITE_PATH=str(path)))
    return str(path)
