"""Django's PostgreSQL backend with a health check that costs no round trip.

A kept connection (``DB_CONNECTIONS=persistent``) is checked before each database call from the event
loop, so that a restarted database costs no failed call. Django checks with ``SELECT 1``: one more
round trip before every move, join and ping of the ticker. An idle connection has nothing to read,
though; when its socket is readable, the server has closed it or is saying why it is about to (a
restart, a terminated backend), and a zero-timeout ``select`` sees that without a word to the server.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base


class DatabaseWrapper(base.DatabaseWrapper):
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
