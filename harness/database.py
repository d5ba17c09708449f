"""A database of a run's own: a throwaway PostgreSQL database beside a given one, or a SQLite file.

Runs never share rows: each test module and each benchmark configuration gets a fresh, migrated
database, and a PostgreSQL one is dropped afterwards (its open sessions ended). A process migrates one
template database per PostgreSQL server, and one SQLite template file, and copies it for each further
database (the templates are removed when the process exits): a migration costs seconds of CPU, a copy
next to nothing. Processes of one run (the test suite's workers) share their templates when
``TEMPLATES_DIR`` names a directory in their environment: the first to want one migrates it there, under
a lock, and whoever made the directory removes the templates with ``shared_templates_drop``.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import hashlib
import os
import shutil
import sqlite3
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

from harness.server import migrate, server_env

# The environment variable naming a directory where a run's processes share their migrated templates.
TEMPLATES_DIR = "HARNESS_TEMPLATES_DIR"


def _shared() -> Path | None:
    directory = os.environ.get(TEMPLATES_DIR, "").strip()
    return Path(directory) if directory else None


@contextlib.contextmanager
def _locked(directory: Path) -> Iterator[None]:
    """The run's template lock (one process at a time migrates or looks up a template)."""
    with (directory / "lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def shared_templates_drop(directory: Path) -> None:
    """Drop the PostgreSQL templates migrated in ``directory`` (the run's ``TEMPLATES_DIR``) and remove it."""
    for record in directory.glob("postgres-*"):
        server, name = record.read_text().split("\n")[:2]
        _drop(server, name, quiet=True)
    shutil.rmtree(directory, ignore_errors=True)


def is_postgres(url: str) -> bool:
    """Whether ``url`` (a ``DATABASE_URL``) names a PostgreSQL server."""
    return url.startswith(("postgres://", "postgresql://"))


# Per PostgreSQL server (its URL without the database), a database migrated once in this process, of
# which every further database is a copy (CREATE DATABASE ... TEMPLATE: a file copy, no migration run).
_templates: dict[str, str] = {}


def _new_template(server: str) -> str:
    """A new database on ``server``, migrated; its name."""
    import psycopg

    name = f"template_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(server + "/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        migrate(server_env(DATABASE_URL=f"{server}/{name}"))
    except BaseException:
        _drop(server, name)
        raise
    return name


def _migrated_template(server: str) -> str:
    """The name of the migrated template database on ``server``: this process's, created on first use and
    dropped when it exits, or the run's (``TEMPLATES_DIR``), made by the first process that wanted it."""
    if server not in _templates:
        shared = _shared()
        if shared is None:
            _templates[server] = _new_template(server)
            atexit.register(_drop, server, _templates[server], quiet=True)
        else:
            record = shared / f"postgres-{hashlib.sha256(server.encode()).hexdigest()[:12]}"
            with _locked(shared):
                if not record.exists():
                    record.write_text(f"{server}\n{_new_template(server)}\n")
                _templates[server] = record.read_text().split("\n")[1]
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


def migrated_template(base_url: str) -> str:
    """The name of the migrated template database on the PostgreSQL server of ``base_url`` (this
    process's, or the run's under ``TEMPLATES_DIR``), for a copy made otherwise than by
    ``postgres_database`` (the test suite's own test databases: tests/conftest.py). No session may stay
    connected to it."""
    return _migrated_template(base_url.rsplit("/", 1)[0])


@contextlib.contextmanager
def postgres_database(base_url: str, *, prefix: str = "live") -> Iterator[str]:
    """The URL of a fresh, migrated database on the PostgreSQL server of ``base_url``; dropped afterwards.

    The first one of a process is migrated as a deployment does (``manage.py migrate``) into a template;
    the next ones are copies of it, the same schema and rows, without running the migrations again.
    The server's ``postgres`` database must be reachable with ``base_url``'s credentials (to create it).
    """
    import psycopg

    server = base_url.rsplit("/", 1)[0]
    template = migrated_template(base_url)
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


def migrated_sqlite_template() -> Path:
    """The migrated SQLite template: this process's, migrated on first use and removed when it exits, or
    the run's (``TEMPLATES_DIR``), migrated by the first process that wanted it. ``sqlite_database`` copies
    it; the test suite copies it into its own test databases too (tests/conftest.py). Nothing may write to it."""
    if not _sqlite_template:
        shared = _shared()
        if shared is None:
            directory = Path(tempfile.mkdtemp(prefix="sqlite-template-"))
            atexit.register(shutil.rmtree, directory, ignore_errors=True)
            path = directory / "template.sqlite3"
            migrate(server_env(SQLITE_PATH=str(path)))
        else:
            path = shared / "template.sqlite3"
            with _locked(shared):
                if not path.exists():
                    migrating = shared / "migrating.sqlite3"
                    migrate(server_env(SQLITE_PATH=str(migrating)))
                    migrating.rename(path)  # whole, or not there
        _sqlite_template.append(path)
    return _sqlite_template[0]


def sqlite_database(directory: Path) -> str:
    """The path of a fresh, migrated SQLite file in ``directory`` (for ``SQLITE_PATH``); the caller
    removes ``directory``.

    The first one of a process is migrated as a deployment does (``manage.py migrate``) into a template;
    the next ones are copies of it (SQLite's backup API: the whole database, its WAL included).
    """
    path = directory / f"db-{uuid.uuid4().hex[:8]}.sqlite3"
    with contextlib.closing(sqlite3.connect(migrated_sqlite_template())) as source, \
            contextlib.closing(sqlite3.connect(path)) as copy:
        source.backup(copy)
    return str(path)
