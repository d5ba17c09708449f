"""Shared test fixtures: which real services are configured, and markers that skip with a reason."""

from __future__ import annotations

import copy
import os
import pwd
import re
import shutil
import tempfile
import threading
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from harness.database import TEMPLATES_DIR, migrated_sqlite_template, migrated_template, shared_templates_drop
from tests.sessionkit import (
    KEPT_ROWS,
    KEPT_ROWS_READY,
    SESSION_SETTINGS,
    flush_puts_kept_rows_back,
    sqlite_test_database_copied,
    static_files_scanned_once,
)

# `pytest --cpu-times=PATH`: each test's wall and CPU time (its process and those it spawns), tests/cpukit.py.
pytest_plugins = ["tests.cpukit"]

POSTGRES_CONFIGURED = os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))
REDIS_CONFIGURED = bool(os.environ.get("REDIS_URL", "").strip())
# Debian's nginx (.ci/run installs it), for the deployment test; /usr/sbin may be missing from PATH.
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None)


def _postgres_bindir() -> Path | None:
    """Where PostgreSQL's server programs are (Debian: /usr/lib/postgresql/VERSION/bin), newest first."""
    def version(bindir: Path) -> tuple[int, ...]:
        return tuple(int(part) for part in re.findall(r"\d+", bindir.parent.name))

    candidates = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=version, reverse=True)
    on_path = shutil.which("pg_ctl")
    candidates += [Path(on_path).parent] if on_path else []
    return next((c for c in candidates if (c / "initdb").exists() and (c / "pg_ctl").exists()), None)


# The fault tests start (and stop) a Redis and a PostgreSQL of their own: they need the server programs.
REDIS_SERVER = shutil.which("redis-server") or ("/usr/bin/redis-server" if os.access("/usr/bin/redis-server",
                                                                                      os.X_OK) else None)
POSTGRES_BINDIR = _postgres_bindir()
RUNUSER = shutil.which("runuser") or ("/usr/sbin/runuser" if os.access("/usr/sbin/runuser", os.X_OK) else None)


def _can_run_postgres() -> bool:
    """PostgreSQL refuses to run as root: then the fault kit runs it as the ``postgres`` user."""
    if os.geteuid() != 0:
        return True
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        return False
    return RUNUSER is not None


FAULT_SERVERS = bool(REDIS_SERVER and POSTGRES_BINDIR and _can_run_postgres())
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


# --- parallel runs (pytest-xdist: `make test` runs `pytest -n auto`) ---------------------------------
# Each worker is a process of its own: pytest-django gives it a test database of its own (test_NAME_gwN),
# tmp_path_factory a directory, tests/e2e a server and a browser, and every live server binds a free port.
# What would still cross between workers is the channel layer of the in-process tests (their groups, e.g.
# "lobby", on the one Redis of REDIS_URL): each worker gets a Redis database and a key prefix of its own.
REDIS_DATABASES = 16  # Redis's default number of databases (0..15)


def worker_redis_url(url: str, worker: int) -> str:
    """``url`` moved to Redis database ``N + worker``, ``N`` being its own (0 if it names none), as long
    as that exists; past database 15 workers share the last one (their key prefixes still keep them apart)."""
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{min(base + worker, REDIS_DATABASES - 1)}"))


def _isolate_worker(worker_id: str) -> None:
    """Point this xdist worker's in-process channel layer and its live servers at Redis database and key
    prefix of its own (``worker_redis_url``; prefix ``asgi_gwN``): no group is shared with another worker."""
    from django.conf import settings

    if not REDIS_CONFIGURED:
        return
    url = worker_redis_url(os.environ["REDIS_URL"], int(worker_id.removeprefix("gw")))
    os.environ["REDIS_URL"] = url  # the live servers of tests/integration take theirs from here
    layers = copy.deepcopy(settings.CHANNEL_LAYERS)
    layers["default"]["CONFIG"].update(hosts=[url], prefix=f"{layers['default']['CONFIG']['prefix']}_{worker_id}")
    settings.CHANNEL_LAYERS = layers
    settings.REDIS_URL = url


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist: unknown under -p no:xdist
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto`` (``make test``): a worker per core and one more. Many tests spend part of their time
    waiting, on a server process starting, a browser or a timer: the extra worker's tests run meanwhile,
    at the cost of its own set-up (a test database, a server and a browser, a few seconds of CPU).
    ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still says how many when it is set."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # pytest-xdist's own reads it
    return len(os.sched_getaffinity(0)) + 1


def _name_xdist_groups(config: pytest.Config, items: list[pytest.Item]) -> None:
    """``--dist loadgroup``: each worker names a test marked ``xdist_group`` ``NODEID@GROUP``, the name by
    which the scheduler sends a group whole to one worker. pytest-xdist 3.8 sets ``item._nodeid``, which
    pytest 9.2 no longer reads (its node ids are ``NodeId`` objects): the tests kept their names and were
    spread over the workers one by one, each worker starting the module's shared server for its share. Named
    here as xdist would, once xdist's own naming had no effect."""
    if not config.getoption("loadgroup", default=False):  # set in an xdist worker only
        return
    from _pytest.nodeid import NodeId  # pytest 9.2's; no public way to rename an item

    for item in items:
        groups = sorted({str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
                         for mark in item.iter_markers("xdist_group")})
        if groups and "@" not in item.nodeid.rsplit("]", 1)[-1]:
            item._id = NodeId.parse(f"{item.nodeid}@{'_'.join(groups)}")  # type: ignore[attr-defined]


_TEMPLATES = pytest.StashKey[Path]()


def pytest_configure(config: pytest.Config) -> None:
    from django.test.utils import override_settings

    override_settings(**SESSION_SETTINGS).enable()  # for the whole session (the hashers' cache reset, and so on)
    static_files_scanned_once()
    flush_puts_kept_rows_back()
    worker_id = getattr(config, "workerinput", {}).get("workerid")
    if worker_id:
        _isolate_worker(worker_id)
    elif not os.environ.get(TEMPLATES_DIR):
        # The run's migrated templates (the harness's databases: a PostgreSQL one, a SQLite file), made once
        # by the first worker that wants each and shared by all (the workers inherit this environment).
        config.stash[_TEMPLATES] = Path(tempfile.mkdtemp(prefix="harness-templates-"))
        os.environ[TEMPLATES_DIR] = str(config.stash[_TEMPLATES])
        _template_made_while_workers_collect(config)


_EARLY_TEMPLATE = pytest.StashKey[threading.Thread]()


def _template_made_while_workers_collect(config: pytest.Config) -> None:
    """The whole suite on workers (``make test``): the controller, idle meanwhile, migrates the run's template
    (PostgreSQL's or the SQLite file) while the workers collect, instead of one worker after collecting while
    the others wait for it (their first tests all want it: the live servers' databases, the test databases).
    Under the templates' lock, as a worker would: a worker that wants it first waits, or makes it itself."""
    if (getattr(config.option, "numprocesses", None) or 0) < 2 or config.option.collectonly \
            or config.args_source is not pytest.Config.ArgsSource.TESTPATHS:
        return
    url = os.environ.get("DATABASE_URL", "")
    make = (lambda: migrated_template(url)) if POSTGRES_CONFIGURED else migrated_sqlite_template
    config.stash[_EARLY_TEMPLATE] = threading.Thread(target=make, name="early-template", daemon=True)
    config.stash[_EARLY_TEMPLATE].start()


def pytest_unconfigure(config: pytest.Config) -> None:
    early = config.stash.get(_EARLY_TEMPLATE, None)
    if early is not None:
        early.join()  # its template is then recorded in the directory, and dropped with it
    directory = config.stash.get(_TEMPLATES, None)
    if directory is not None:
        shared_templates_drop(directory)
        del os.environ[TEMPLATES_DIR]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip tests for services (or nginx) that are missing, saying why. In CI nothing may skip for that."""
    reasons = {
        "postgres": None if POSTGRES_CONFIGURED else "DATABASE_URL is not a PostgreSQL URL",
        "redis": None if REDIS_CONFIGURED else "REDIS_URL is not set",
        "nginx": None if NGINX else "nginx is not installed (apt-get install nginx)",
        "faults": None if FAULT_SERVERS else (
            "redis-server, or PostgreSQL's initdb and pg_ctl (and, as root, a postgres user and runuser), are "
            "missing (apt-get install redis-server postgresql)"
        ),
    }
    # The longest first, so that a parallel run does not end on one of them: the multi-process tests
    # (slow), then the browser tests, then the rest (a stable sort: each module's tests stay together).
    # Playwright's sync API must not share the thread with async tests: tests/e2e/conftest.py stops the
    # browser before any test that is not a browser test.
    def longest_first(item: pytest.Item) -> int:
        return 0 if item.get_closest_marker("slow") else 1 if item.get_closest_marker("browser") else 2

    items.sort(key=longest_first)
    for item in items:
        for marker, reason in reasons.items():
            if reason and item.get_closest_marker(marker):
                if IN_CI:
                    raise pytest.UsageError(f"CI must run {item.nodeid}, but {reason}")
                item.add_marker(pytest.mark.skip(reason=f"{reason}: skipping {marker} test"))
    _name_xdist_groups(config, items)


@pytest.fixture
def background_analyses(settings):
    """The in-process lobby ticker computes queued post-game analyses, with the deployed budget
    (tests/sessionkit.py's ``SESSION_SETTINGS`` turn them off), whatever the test process's own CPU (the wait
    for a quiet process is tested with its clocks, tests/games/test_analysis_queue.py)."""
    settings.ANALYSIS_CPU_BUDGET_S = 60.0
    settings.ANALYSIS_BUSY_SHARE = 0


@pytest.fixture
async def runtime_cleanup():
    """Stop this test loop's runtime (ticker, matchmaker, presence, feed, outbox) before the loop closes."""
    yield
    from live import runtime

    await runtime.stop_this_loop()


@pytest.fixture(autouse=True)
def _fresh_channel_layer():
    """A new channel layer for each test: a Redis layer's connections belong to one event loop."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def _private_cache():
    """Each test gets an empty process-local cache (``SESSION_SETTINGS``' CACHES)."""
    from django.core.cache import caches

    caches["default"].clear()
    yield
    caches["default"].clear()


@pytest.fixture(autouse=True)
def _no_snapshots_kept():
    """Rooms rolled back with a test may come back in the next with the same code and version: the
    snapshots a join reuses (lobby.rooms.selectors.SPECTATOR_SNAPSHOTS) start empty in each test."""
    from lobby.rooms.selectors import SPECTATOR_SNAPSHOTS

    SPECTATOR_SNAPSHOTS.clear()
    yield
    SPECTATOR_SNAPSHOTS.clear()


# A session of the test database idle in a transaction this long is ended by PostgreSQL. A test that
# failed (a timeout on a loaded machine) can leave one behind in a thread of its realtime runtime (seen:
# the ticker's ``games_next_due`` query); the flush after the next transactional test (its LOCK TABLE) would
# wait for its lock for ever, and the whole run with it. No test keeps a transaction idle for so long.
IDLE_IN_TRANSACTION_TIMEOUT = "120s"


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix: None,
                                 tmp_path_factory: pytest.TempPathFactory) -> None:
    """On PostgreSQL each worker's test database (pytest-django's test_NAME_gwN) is a copy of the run's
    migrated template, the one the live servers' databases are copied from (harness.database: migrated
    once a run, by the first process that wants it), instead of migrated anew in every worker (3-4 s of
    CPU each): TEST's TEMPLATE names it, and with MIGRATE False Django's migrate finds every table
    there already and creates nothing (its post_migrate handlers still run).

    On SQLite each worker's test database is a file of its own (in the worker's temporary directory), as
    the server's is, not Django's shared in-memory database: there a writer that finds another thread's
    transaction holding a table fails at once ("database table is locked": a shared cache's lock, which
    the busy timeout does not cover), and the lobby's loops and sweeps run on threads of their own beside
    the test's (tests/lobby/realtime/test_lobby_consumer failed so about one run in three under load).
    On workers that file too is a copy of the run's migrated template (tests/sessionkit.py's
    ``sqlite_test_database_copied``)."""
    from django.conf import settings

    test = settings.DATABASES["default"].setdefault("TEST", {})
    if not POSTGRES_CONFIGURED:
        test["NAME"] = str(tmp_path_factory.mktemp("test-database") / "test.sqlite3")
        if os.environ.get("PYTEST_XDIST_WORKER"):  # one process alone migrates its own: no template to share
            test["MIGRATE"] = False
            sqlite_test_database_copied()
        return
    test.update(TEMPLATE=migrated_template(os.environ["DATABASE_URL"]), MIGRATE=False)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database (its sessions idle in a transaction ended after
    ``IDLE_IN_TRANSACTION_TIMEOUT``), and before it is dropped, the end of every other session on it:
    the threads that keep their connections (the websockets' and pairing lanes, the kept HTTP threads)
    outlive the tests, and PostgreSQL refuses to drop a database still in use."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with django_db_blocker.unblock(), connection.cursor() as cursor:
            name = connection.ops.quote_name(connection.settings_dict["NAME"])
            cursor.execute(f"ALTER DATABASE {name} SET idle_in_transaction_session_timeout = "
                           f"'{IDLE_IN_TRANSACTION_TIMEOUT}'")
            for table, kept in KEPT_ROWS:
                cursor.execute(f"DROP TABLE IF EXISTS {kept}")
                cursor.execute(f"CREATE TABLE {kept} AS TABLE {table}")
        KEPT_ROWS_READY.append(connection.alias)
    yield
    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                       " WHERE datname = current_database() AND pid <> pg_backend_pid()")
