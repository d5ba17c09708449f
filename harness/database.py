"""A database of a run's own: a throwaway PostgreSQL database beside a given one, or a SQLite file.

Runs never share rows: each test module and each benchmark configuration gets a fresh, migrated
database, and a PostgreSQL one is dropped afterwards (its open sessions ended). A process migrates one
template database per PostgreSQL server, and one SQLite template file, and copies it for each further
database (the templates are removed when the process exits): a migration costs seconds of CPU, a copy
next to nothing.
"""

from __future__ import annotations

import atexit
import contextlib
import shutil
import sqlite3
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

from harness.server import migrate, server_env


def is_postgres(url: str) -> bool:
    """Whether ``url`` (a ``DATABASE_URL``) names a PostgreSQL server."""
    return url.startswith(("postgres://", "postgresql://"))


# Per PostgreSQL server (its URL without the database), a database migrated once in this process, of
# which every further database is a copy (CREATE DATABASE ... TEMPLATE: a file copy, no migration run).
_templates: dict[str, str] = {}


def _migrated_template(server: str) -> str:
    """The name of this process's migrated template database on ``server``; created on first use and
    dropped when the process exits."""
    import psycopg

    if server not in _templates:
        name = f"template_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(server + "/postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        try:
            migrate(server_env(DATABASE_URL=f"{server}/{name}"))
        except BaseException:
            _drop(server, name)
            raise
        _templates[server] = name
        atexit.register(_drop, server, name, quiet=True)
    return _templates[server]


def _drop(server: str, name: str, *, quiet: bool = False) -> None:
    """Drop database ``name`` (its open sessions ended); ``quiet``: at exit, whatever became of the server."""
    import psycopg

    try:
        with psycopg.connect(server + "/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    except psycopg.Error:
        if not quiet:
            raise


@contextlib.contextmanager
def postgres_database(base_url: str, *, prefix: str = "live") -> Iterator[str]:
    """The URL of a fresh, migrated database on the PostgreSQL server of ``base_url``; dropped afterwards.

    The first one of a process is migrated as a deployment does (``manage.py migrate``) into a template;
    the next ones are copies of it, the same schema and rows, without running the migrations again.
    The server's ``postgres`` database must be reachable with ``base_url``'s credentials (to create it).
    """
    import psycopg

    server = base_url.rsplit("/", 1)[0]
    template = _migrated_template(server)
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(server + "/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    try:
        yield f"{server}/{name}"
    finally:
        _drop(server, name)


def connections_to(url: str) -> int:
    """How many connections the PostgreSQL server of ``url`` holds to ``url``'s database right now (its
    ``pg_stat_activity``), the one asking not counted."""
    import psycopg

    server, name = url.rsplit("/", 1)
    with psycopg.connect(server + "/postgres", autocommit=True) as conn:
        row = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (name,)).fetchone()
    return int(row[0]) if row else 0


# This process's migrated SQLite file, of which every further SQLite database is a copy.
_sqlite_template: list[Path] = []


def _migrated_sqlite_template() -> Path:
    """This process's migrated SQLite template: migrated on first use, removed when the process exits."""
    if not _sqlite_template:
        directory = Path(tempfile.mkdtemp(prefix="sqlite-template-"))
        atexit.register(shutil.rmtree, directory, ignore_errors=True)
        path = directory / "template.sqlite3"
        migrate(server_env(SQLITE_PATH=str(path)))
        _sqlite_template.append(path)
    return _sqlite_template[0]


def sqlite_database(directory: Path) -> str:
    """The path of a fresh, migrated SQLite file in ``directory`` (for ``SQLITE_PATH``); the caller
    removes ``directory``.

    The first one of a process is migrated as a deployment does (``manage.py migrate``) into a template;
    the next ones are copies of it (SQLite's backup API: the whole database, its WAL included).
    """
    path = directory / f"db-{uuid.uuid4().hex[:8]}.sqlite3"
    with contextlib.closing(sqlite3.connect(_migrated_sqlite_template())) as source, \
            contextlib.closing(sqlite3.connect(path)) as copy:
        source.backup(copy)
    return str(path)
