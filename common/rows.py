"""The few statements of the hot path (a move) as SQL written once, with rows turned into model
instances, and instances into parameters, the way the ORM does it: its column list, its value
converters on the way in and its preparation on the way out.

Every queryset is compiled to SQL anew each time it runs: for the seats of a room or a room's latest
game that is about 0.6 ms of CPU on this project's machine, more than the query's round trip to a
local PostgreSQL. A move reads and writes four rows; everything else keeps to the ORM.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model

M = TypeVar("M", bound=Model)
# A column's converter from Django's backends and fields (value, expression, connection) -> value:
# Django's stubs leave them untyped, and a column's value can be of any type (Any throughout).
Converter = Callable[[Any, Any, Any], Any]


class Rows(Generic[M]):
    """SQL fragments for ``model``'s table, and rows of its columns read back into instances."""

    def __init__(self, model: type[M], *, using: str = "default") -> None:
        self.model = model
        self.using = using
        self.table = model._meta.db_table
        self.fields: list[Field[Any, Any]] = list(model._meta.concrete_fields)
        self.attnames = [field.attname for field in self.fields]
        self.width = len(self.fields)
        self._by_name = {field.attname: field for field in self.fields}
        self._converters: list[list[Converter]] | None = None
        self._statements: dict[object, str] = {}

    @property
    def connection(self) -> BaseDatabaseWrapper:
        return connections[self.using]

    def quoted(self, name: str) -> str:
        return str(self.connection.ops.quote_name(name))

    def columns(self, alias: str) -> str:
        """Every column of the model, prefixed with the table's ``alias``, in field order."""
        return ", ".join(f"{alias}.{self.quoted(field.column)}" for field in self.fields)

    def load(self, row: Sequence[Any], start: int = 0) -> M:
        """The instance in ``row[start : start + width]`` (as written by :meth:`columns`)."""
        values = list(row[start : start + self.width])
        for i, converters in enumerate(self._converters_list()):
            for convert in converters:
                values[i] = convert(values[i], self.fields[i], self.connection)
        return self.model.from_db(self.using, self.attnames, values)

    def load_field(self, attname: str, value: Any) -> Any:
        """One column's ``value`` as read from the database, as the field ``attname`` holds it."""
        i = self.attnames.index(attname)
        for convert in self._converters_list()[i]:
            value = convert(value, self.fields[i], self.connection)
        return value

    def _converters_list(self) -> list[list[Converter]]:
        if self._converters is None:
            connection = self.connection
            found = []
            for field in self.fields:
                column = field.get_col(self.table)
                found.append([*connection.ops.get_db_converters(column), *column.get_db_converters(connection)])
            self._converters = found
        return self._converters

    def prep(self, attname: str, value: Any) -> Any:
        """``value`` of the field ``attname``, prepared for the database as a save would."""
        return self._by_name[attname].get_db_prep_save(value, self.connection)

    def params(self, instance: M, attnames: Sequence[str]) -> list[Any]:
        """``instance``'s values of these fields, prepared for the database as a save would."""
        return self.values(attnames, [getattr(instance, name) for name in attnames])

    def values(self, attnames: Sequence[str], values: Sequence[Any]) -> list[Any]:
        """``values`` of these fields (in order), prepared for the database as a save would (the connection
        looked up once: it is a thread-local lookup each time)."""
        connection, fields = self.connection, self._by_name
        return [fields[name].get_db_prep_save(value, connection) for name, value in zip(attnames, values, strict=True)]

    def update_params(self, instance: M, attnames: Sequence[str]) -> list[Any]:
        """The parameters of :meth:`update_sql` for ``instance``: its values of these fields, then its key."""
        return [*self.params(instance, attnames), self.prep(self.model._meta.pk.attname, instance.pk)]

    def statement(self, key: object, build: Callable[[], str]) -> str:
        """The SQL ``build`` returns, built on first use under ``key`` and kept: a hot path's statement
        costs its text once per process, not once per call."""
        sql = self._statements.get(key)
        if sql is None:
            sql = self._statements[key] = build()
        return sql

    def execute(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        """Run ``sql``; the rows it returns (none for a write without ``RETURNING``)."""
        with self.connection.cursor() as cursor:
            cursor.execute(sql, params)
            return list(cursor.fetchall()) if cursor.description is not None else []

    def execute_bound(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        """:meth:`execute`, the parameters sent apart from the SQL where the backend can (this project's
        PostgreSQL backend: ``config.postgres``): for a long statement run on every move."""
        connection = self.connection
        bound = getattr(connection, "bound_cursor", None)
        if bound is None:
            return self.execute(sql, params)
        with bound() as cursor:
            cursor.execute(sql, params)
            return list(cursor.fetchall()) if cursor.description is not None else []

    def insert_sql(self, attnames: Sequence[str]) -> str:
        """``INSERT`` of these fields (the primary key left to the database when it is not among them)."""
        return self.statement(("insert", *attnames), lambda: self._insert_sql(attnames))

    def _insert_sql(self, attnames: Sequence[str]) -> str:
        columns = ", ".join(self.quoted(self._by_name[name].column) for name in attnames)
        return f"INSERT INTO {self.quoted(self.table)} ({columns}) VALUES ({', '.join(['%s'] * len(attnames))})"

    def upsert_sql(self, attnames: Sequence[str], *, unique: Sequence[str], update: Sequence[str]) -> str:
        """``INSERT`` of these fields, or where a row with the same ``unique`` fields exists, an ``UPDATE`` of
        its ``update`` fields to the values given (``ON CONFLICT ... DO UPDATE``: PostgreSQL, SQLite)."""
        def build() -> str:
            column = {name: self.quoted(self._by_name[name].column) for name in (*attnames, *unique, *update)}
            sets = ", ".join(f"{column[name]} = EXCLUDED.{column[name]}" for name in update)
            return (f"{self._insert_sql(attnames)} ON CONFLICT ({', '.join(column[name] for name in unique)}) "
                    f"DO UPDATE SET {sets}")
        return self.statement(("upsert", *attnames, "unique", *unique, "update", *update), build)

    def insert_from_sql(self, attnames: Sequence[str], source: str) -> str:
        """``INSERT`` of these fields' values (parameters) once for each row of ``source`` (a CTE's name):
        a statement that writes only when an earlier one in the same ``WITH`` did."""
        return self.statement(("insert from", source, *attnames), lambda: (
            f"{self._insert_sql(attnames).split(' VALUES ')[0]} SELECT {', '.join(['%s'] * len(attnames))} "
            f"FROM {source}"))

    def update_where_sql(self, attnames: Sequence[str], where: Sequence[str]) -> str:
        """``UPDATE`` of these fields of the rows whose ``where`` fields equal the last parameters."""
        return self.statement(("update where", *attnames, "where", *where), lambda: (
            f"{self._update_sql(attnames).split(' WHERE ')[0]} WHERE "
            + " AND ".join(f"{self.quoted(self._by_name[name].column)} = %s" for name in where)))

    def update_sql(self, attnames: Sequence[str]) -> str:
        """``UPDATE`` of these fields of the row whose primary key is the last parameter."""
        return self.statement(("update", *attnames), lambda: self._update_sql(attnames))

    def _update_sql(self, attnames: Sequence[str]) -> str:
        sets = ", ".join(f"{self.quoted(self._by_name[name].column)} = %s" for name in attnames)
        pk = self.quoted(self.model._meta.pk.column)
        return f"UPDATE {self.quoted(self.table)} SET {sets} WHERE {pk} = %s"
