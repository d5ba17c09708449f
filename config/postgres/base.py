"""Django's PostgreSQL backend with a health check that costs no round trip, counting its round trips.

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
from psycopg.pq import TransactionStatus

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
