"""What the suite sets up once a session (tests/conftest.py's ``pytest_configure`` and database fixtures): the
settings of every in-process test (the ticker's analyses off unless asked among them), the static files
scanned once, the SQLite test database copied from the run's template, and a transactional test's flush that
keeps some rows."""

from __future__ import annotations

import contextlib

from harness.database import migrated_sqlite_template

# The settings every in-process test runs with, set once a session (tests/conftest.py's ``pytest_configure``)
# rather than by an autouse fixture in each test (the ``settings`` fixture's four overrides and their
# restoring: a few ms of CPU in every test); a test still changes any of them with ``settings``, for itself.
SESSION_SETTINGS = {
    # Django's real hasher costs 0.3 s of CPU a password by design; no test here is about its strength. The
    # live servers the tests start hash with the same (tests/livekit.py's TEST_SETTINGS).
    "PASSWORD_HASHERS": ["django.contrib.auth.hashers.MD5PasswordHasher"],
    # The CPU thinks in a thread and briefly in tests; benchmarks measure its real strength.
    "CPU_WORKERS": 0,
    "CPU_TIME_SCALE": 0.05,
    # In-process tests run the websockets' database work on Channels' one thread, as on SQLite: work still
    # running in another thread when a test ends would race the flush of its tables. The threads
    # (DB_THREADS) are exercised by the live servers of tests/integration and by the benchmark.
    "DB_THREADS": 1,
    # A process-local cache, emptied before and after each test (tests/conftest.py's ``_private_cache``):
    # login limits must not leak between tests or runs.
    "CACHES": {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}},
    # The lobby's ticker (a loop service of every in-process websocket test) computes no post-game analysis:
    # 1-6 s of CPU a finished game whatever the budget (the guaranteed proofs), which no such test reads,
    # and which ran on into the next tests (a thread is not cancelled with its loop). A queued analysis stays
    # queued; the lane's own tests give it a budget (tests/conftest.py's ``background_analyses``), and the
    # queue, the lease and the computation are tested directly (tests/games/test_analysis_queue.py).
    "ANALYSIS_CPU_BUDGET_S": 0,
}

def static_files_scanned_once() -> None:
    """WhiteNoise's middleware lists and stats every static file when a middleware chain is built (80 ms
    of CPU with three.js's 1,277 files): once per process when deployed, but once per test Client here (its
    first request builds a chain of its own). The files it found are kept for the process's next chains
    with the same static settings; each chain still serves them as deployed."""
    from django.conf import settings
    from whitenoise.middleware import WhiteNoiseMiddleware

    scan = WhiteNoiseMiddleware.add_files_from_finders
    found: dict[tuple[object, ...], dict[str, object]] = {}

    def add_files_from_finders(self: WhiteNoiseMiddleware) -> None:
        key = (self.static_prefix, self.max_age, self.charset, self.allow_all_origins, self.index_file, *(
            repr(getattr(settings, name, None)) for name in (
                "STATICFILES_DIRS", "STATICFILES_FINDERS", "INSTALLED_APPS", "STORAGES", "WHITENOISE_MIMETYPES",
                "WHITENOISE_ADD_HEADERS_FUNCTION", "WHITENOISE_IMMUTABLE_FILE_TEST")))
        if key not in found:
            before = dict(self.files)
            scan(self)
            found[key] = {url: file for url, file in self.files.items() if before.get(url) is not file}
        self.files.update(found[key])

    WhiteNoiseMiddleware.add_files_from_finders = add_files_from_finders  # type: ignore[method-assign]


def sqlite_test_database_copied() -> None:
    """Django creates a SQLite test database file empty (removing any left there) and migrates it: 2.5-3 s
    of CPU a worker. Here the empty file is filled with a copy of the run's migrated SQLite template instead
    (harness.database's, made once a run; SQLite's backup API, as ``sqlite_database`` copies it), before
    Django's migrate, which with MIGRATE False finds every table there already."""
    import sqlite3

    from django.db.backends.sqlite3.creation import DatabaseCreation

    create = DatabaseCreation._create_test_db

    def _create_test_db(self: DatabaseCreation, verbosity: int, autoclobber: bool, keepdb: bool = False) -> str:
        name = create(self, verbosity, autoclobber, keepdb)
        if not keepdb and not self.is_in_memory_db(name):
            with contextlib.closing(sqlite3.connect(migrated_sqlite_template())) as source, \
                    contextlib.closing(sqlite3.connect(name)) as copy:
                source.backup(copy)
        return name

    DatabaseCreation._create_test_db = _create_test_db  # type: ignore[method-assign]


# The rows Django's post_migrate handlers write (content types, permissions), kept aside once per test
# database: a transactional test's flush puts them back by SQL instead of running the handlers again.
KEPT_ROWS = (("django_content_type", "suite_kept_content_types"), ("auth_permission", "suite_kept_permissions"))
KEPT_ROWS_READY: list[str] = []  # the databases (aliases) whose rows are kept


def flush_puts_kept_rows_back() -> None:
    """A transactional test ends with Django's flush (TRUNCATE of every table), then its post_migrate
    handlers write every content type and permission again: 76-86 ms of CPU in the test's process each
    time, some 200 tests of the suite. On a test database whose rows are kept (``KEPT_ROWS``) the flush
    inhibits the handlers and copies the same rows back, the same ids included; the rest as Django's.

    There (PostgreSQL) the tables are emptied by DELETE, not TRUNCATE: a TRUNCATE of the some fifty tables
    makes each a new file, about a second of the server's time and the test's wall time each flush at load
    10-13, where deleting the few rows a test wrote takes 10-20 ms. As TRUNCATE waits for the transactions
    writing to a table, the tables are locked first against writers (EXCLUSIVE: reads go on), so a
    transaction still running in a test's thread either commits before the flush (its rows deleted) or
    after it; the foreign keys (Django's, deferrable) are checked at the flush's commit, on empty tables.
    Sequences go on from where they were, as with Django's flush without ``reset_sequences``."""
    from django.contrib.contenttypes.models import ContentType
    from django.db import connections, transaction
    from django.test import TransactionTestCase

    django_teardown = TransactionTestCase._fixture_teardown

    def _fixture_teardown(self: TransactionTestCase) -> None:
        databases = list(self._databases_names(include_mirrors=False))
        if self.available_apps is not None or self.serialized_rollback or not set(databases) <= set(KEPT_ROWS_READY):
            return django_teardown(self)
        for alias in databases:
            connection = connections[alias]
            tables = sorted(connection.introspection.django_table_names(only_existing=True, include_views=False))
            names = [connection.ops.quote_name(table) for table in tables]
            with transaction.atomic(using=alias), connection.cursor() as cursor:
                cursor.execute(f"LOCK TABLE {', '.join(names)} IN EXCLUSIVE MODE")
                cursor.execute("SET CONSTRAINTS ALL DEFERRED")
                cursor.execute("; ".join(f"DELETE FROM {name}" for name in names))
                for table, kept in KEPT_ROWS:
                    cursor.execute(f"INSERT INTO {table} SELECT * FROM {kept}")
        ContentType.objects.clear_cache()
        return None

    TransactionTestCase._fixture_teardown = _fixture_teardown  # type: ignore[method-assign]
