"""The harness's SQLite databases: each one migrated, and each one a database of its own."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from harness.database import sqlite_database


def _count(path: str, sql: str) -> int:
    with contextlib.closing(sqlite3.connect(path)) as db:
        return int(db.execute(sql).fetchone()[0])


def test_each_sqlite_database_is_migrated_and_shares_no_rows(tmp_path: Path) -> None:
    first, second = sqlite_database(tmp_path), sqlite_database(tmp_path)
    assert first != second
    applied = _count(first, "SELECT count(*) FROM django_migrations")
    assert applied > 0 and _count(second, "SELECT count(*) FROM django_migrations") == applied
    # The shipped puzzle pool, loaded by a migration, is in each copy.
    assert _count(first, "SELECT count(*) FROM puzzles_puzzle") > 0
    with contextlib.closing(sqlite3.connect(first)) as db:
        db.execute("DELETE FROM puzzles_puzzle")
        db.commit()
    assert _count(first, "SELECT count(*) FROM puzzles_puzzle") == 0
    assert _count(second, "SELECT count(*) FROM puzzles_puzzle") > 0
    assert _count(sqlite_database(tmp_path), "SELECT count(*) FROM puzzles_puzzle") > 0
