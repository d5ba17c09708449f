"""Django's database sessions (``SESSION_ENGINE``), each of their statements written once and run alone.

Django's own store reads a session through a queryset compiled anew each time, looks a new key up
before it uses it (a query), and wraps every write in a transaction of its own (``BEGIN``, the write,
``COMMIT``): a new device's session cost four round trips to PostgreSQL and the queries' compilation.
Here the read and the writes are SQL written once (:mod:`common.rows`); a new key is written straight
away, a key already taken (32 random characters: it never is) failing the insert as Django's store
expects of it (it draws another); and a write outside a transaction is one statement in autocommit, as
atomic on its own as in Django's transaction (inside one, a savepoint still keeps a failed insert from
spoiling the caller's). The rows, the cookie and the encoding are Django's.
"""

from __future__ import annotations

import contextlib
from typing import Any

from django.contrib.sessions.backends import db
from django.contrib.sessions.backends.base import VALID_KEY_CHARS, CreateError, UpdateError
from django.contrib.sessions.models import Session
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.crypto import get_random_string

from common.rows import Rows

_SESSIONS = Rows(Session)
_FIELDS = ("session_key", "session_data", "expire_date")


class SessionStore(db.SessionStore):
    def _get_session_from_db(self) -> Session | None:
        sessions = _SESSIONS
        sql = sessions.statement("read", lambda: (
            f"SELECT {sessions.columns('s')} FROM {sessions.quoted(sessions.table)} s "
            f"WHERE s.{sessions.quoted('session_key')} = %s AND s.{sessions.quoted('expire_date')} > %s"))
        rows = sessions.execute(sql, [self.session_key, sessions.prep("expire_date", timezone.now())])
        if not rows:
            self._session_key = None
            return None
        return sessions.load(rows[0])

    def _get_new_session_key(self) -> str:
        return get_random_string(32, VALID_KEY_CHARS)  # a taken one fails its insert: create() draws again

    def save(self, must_create: bool = False) -> None:
        if self.session_key is None:
            return self.create()
        data = self._get_session(no_load=must_create)  # type: ignore[attr-defined]  # Django's, not in its stubs
        session = self.create_model_instance(data)
        sessions = _SESSIONS
        values: list[Any] = sessions.values(_FIELDS, [getattr(session, name) for name in _FIELDS])  # Any: prepared
        connection = sessions.connection
        alone = contextlib.nullcontext() if not connection.in_atomic_block else transaction.atomic()
        with alone, connection.cursor() as cursor:
            if must_create:
                try:
                    cursor.execute(sessions.insert_sql(_FIELDS), values)
                except IntegrityError:
                    raise CreateError from None
                return None
            cursor.execute(sessions.update_where_sql(_FIELDS[1:], ("session_key",)), [*values[1:], values[0]])
            if cursor.rowcount != 1:
                raise UpdateError  # gone meanwhile (Django's store: the same)
        return None
