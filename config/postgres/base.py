"""Django's PostgreSQL backend with a health check that costs no round trip, counting its round trips, and a
cursor binding its values apart from the SQL (:meth:`DatabaseWrapper.bound_cursor`, the move's statement).

A kept connection (``DB_CONNECTIONS=persistent``) is checked before each database call from the event
loop, so that a restarted database costs no failed call. Django checks with ``SELECT 1``: one more
round trip before every move, join and ping of the ticker. An idle connection has nothing to read,
though; when its socket is readable, the server has closed it or is saying why it is about to (a
restart, a terminated backend), and a zero-timeout ``select`` sees that without a word to the server.

Every round trip is counted (``fourinarow_db_round_trips_total``, ``GET /metrics``): each statement, and
the ``BEGIN`` psycopg sends before a transaction's first statement and its ``COMMIT`` or ``ROLLBACK``,
each a round trip of its own (a statement outside a transaction, autocommitted, is one round trip in all).
"""

from __future__ import annotations

import select
from collections.abc import Callable
from typing import Any

from django.db.backends.postgresql import base
from django.db.backends.postgresql.psycopg_any import register_tzloader  # type: ignore[import-untyped]
from django.db.backends.utils import CursorWrapper
from django.utils.asyncio import async_unsafe
from psycopg import adapters
from psycopg.pq import Format, TransactionStatus

from common.metrics import round_trip


class DatabaseWrapper(base.DatabaseWrapper):
    def __init__(self, *args: Any, **kwargs: Any) -> None:  # Any: Django's own signature
        super().__init__(*args, **kwargs)
        self.execute_wrappers.append(_counted)

    def _commit(self) -> None:
        _count_end(self)
        super()._commit()  # type: ignore[misc]  # django-stubs leave the backend's _commit out

    def _rollback(self) -> None:
        _count_end(self)
        super()._rollback()  # type: ignore[misc]  # (and _rollback)

    @async_unsafe
    def bound_cursor(self) -> CursorWrapper:
        """A cursor like :meth:`cursor`'s (the same checks, wrappers and counting) whose statements send their
        parameters apart from the SQL (server-side binding), where Django's write every value into the SQL
        text in Python: for the move's one long statement of some twenty values, that quoting costs more
        CPU than the rest of the call."""
        self.close_if_health_check_failed()
        self.ensure_connection()
        with self.wrap_database_errors:
            cursor = base.ServerBindingCursor(self.connection)  # type: ignore[attr-defined]  # (psycopg 3's)
            if self.timezone != self.connection.adapters.get_loader(_TIMESTAMPTZ, Format.TEXT).timezone:
                register_tzloader(self.timezone, cursor)  # as Django's own cursors do
            return self._prepare_cursor(cursor)  # type: ignore[attr-defined,no-any-return]  # django-stubs omit it

    def is_usable(self) -> bool:
        """Whether the kept connection can take the next statement: open, not known broken, and nothing
        waiting on its idle socket (the server's farewell, or its end of file)."""
        connection = self.connection
        if connection is None or connection.closed or connection.broken:
            return False
        try:
            readable, _, _ = select.select([connection.fileno()], [], [], 0)
        except (OSError, ValueError):  # the socket is gone already
            return False
        return not readable


_TIMESTAMPTZ = adapters.types["timestamptz"].oid


def _counted(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]) -> Any:
    """Count a statement's round trip, and the ``BEGIN`` before it when it opens a transaction."""
    connection = context["connection"].connection
    if not connection.autocommit and connection.info.transaction_status == TransactionStatus.IDLE:
        round_trip()
    round_trip()
    return execute(sql, params, many, context)


def _count_end(wrapper: DatabaseWrapper) -> None:
    """A ``COMMIT`` or ``ROLLBACK`` that psycopg sends (none when no transaction is open)."""
    connection = wrapper.connection
    if connection is not None and connection.info.transaction_status != TransactionStatus.IDLE:
        round_trip()
