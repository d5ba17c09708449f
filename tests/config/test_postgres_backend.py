"""config.postgres: a kept connection is checked before each database call without a round trip, and a
connection the server has dropped is still found out (and replaced) before it fails a call."""

from __future__ import annotations

import select
import time

import psycopg
import pytest
from django.db import close_old_connections, connection

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def traced(path, action):
    """Run ``action`` with libpq tracing every protocol message of the kept connection into ``path``."""
    with path.open("w") as out:
        connection.connection.pgconn.trace(out.fileno())
        try:
            return action()
        finally:
            connection.connection.pgconn.untrace()


def test_a_healthy_connection_is_checked_without_a_word_to_the_server(tmp_path):
    connection.ensure_connection()
    assert traced(tmp_path / "check", connection.is_usable) is True
    assert (tmp_path / "check").read_text() == ""
    # (the trace does see a statement: Django's own check, SELECT 1, would have shown here)
    traced(tmp_path / "query", lambda: connection.connection.execute("SELECT 1"))
    assert "SELECT 1" in (tmp_path / "query").read_text()


def test_a_terminated_backend_is_found_out_and_the_next_call_reconnects():
    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    params = {k: v for k, v in connection.get_connection_params().items() if k in {"dbname", "user", "host", "port",
                                                                                     "password"}}
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
    deadline = time.monotonic() + 5
    while not select.select([connection.connection.fileno()], [], [], 0.1)[0]:  # the server's farewell
        assert time.monotonic() < deadline, "the server did not close the connection"
    assert connection.is_usable() is False
    close_old_connections()  # what each database call from the event loop does first
    with connection.cursor() as cursor:  # no failed call: the health check replaced the connection
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone()[0] != pid
