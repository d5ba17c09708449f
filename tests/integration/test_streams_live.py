"""The server keeps serving while bots stream (issue 30), on real daphne processes: embedded (SQLite, the
in-memory layer) and on PostgreSQL + Redis.

With more streams open than the process has HTTP threads, an ordinary request is still served, the
process starts no thread per stream and (on PostgreSQL) opens no database connection per stream; the
caps per account and per process refuse with ``429 too_many_streams``; and a revoked token's stream, or
a banned account's, ends at once, from another process.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.database import connections_to
from harness.stream import NdjsonStream, StreamRefused
from tests.livekit import BIN, ROOT, Device, LiveServer, postgres_database, running, server_env, sqlite_database

pytestmark = [pytest.mark.slow]

PASSWORD = "four-in-a-row-3d!"
HTTP_THREADS = 2
STREAMS = 8  # four times the HTTP threads
PER_ACCOUNT = 3  # the default number of event streams an account may hold open
DB_THREADS = PAIRING_THREADS = 1
SETTINGS = {"HTTP_THREADS": str(HTTP_THREADS), "DB_THREADS": str(DB_THREADS), "PAIRING_THREADS": str(PAIRING_THREADS),
            "BOT_STREAMS_PER_PROCESS": str(STREAMS)}
# The threads that may hold a database connection, each at most one, however busy the machine: the lanes', the
# HTTP threads', asgiref's one shared thread and the loop services' own (live.offload.offload_alone: mail,
# postgame). Fewer than the streams: a connection per stream would show.
LOOP_THREADS = ("mail", "postgame")
CONNECTION_HOLDERS = DB_THREADS + PAIRING_THREADS + HTTP_THREADS + 1 + len(LOOP_THREADS)
assert CONNECTION_HOLDERS < STREAMS
# The kernel's name of a thread of asgiref's own executors (``common.threads``): its one shared thread, and
# the thread of a request context served Django's way, held to the request's end. A stream holding a
# thread would hold one of these; every other thread of the server is named for its kind.
CONTEXT_THREAD = "ThreadPoolExecu"


@contextlib.contextmanager
def on_postgres(log_dir: Path, count: int) -> Iterator[tuple[tuple[LiveServer, ...], str]]:
    """(``count`` servers on a fresh PostgreSQL database and Redis, the database's URL)."""
    with postgres_database(os.environ["DATABASE_URL"]) as url:
        env = server_env(DATABASE_URL=url, REDIS_URL=os.environ["REDIS_URL"], CHANNEL_PREFIX=f"t{uuid.uuid4().hex[:8]}",
                         **SETTINGS)
        with running(env, count, log_dir=log_dir) as servers:
            yield servers, url


@pytest.fixture(params=["embedded", pytest.param("postgres", marks=[pytest.mark.postgres, pytest.mark.redis])])
def server(request, tmp_path) -> Iterator[tuple[LiveServer, str | None]]:
    """(one server, its PostgreSQL URL or None): embedded, or on PostgreSQL + Redis."""
    if request.param == "embedded":
        with running(server_env(SQLITE_PATH=sqlite_database(tmp_path), **SETTINGS), 1, log_dir=tmp_path) as (one,):
            yield one, None
        return
    with on_postgres(tmp_path, 1) as ((one,), url):
        yield one, url


def account(server: LiveServer, username: str) -> tuple[Device, str]:
    """A new account signed in on a device, and a token of it."""
    device = Device(server.http)
    device.request("GET", "/api/session")
    device.expect("POST", "/api/accounts/register", {"username": username, "password": PASSWORD}, ok=(201,))
    return device, device.expect("POST", "/api/accounts/tokens", {"description": "bot"}, ok=(201,))["token"]


def refused(server: LiveServer, token: str) -> StreamRefused:
    with pytest.raises(StreamRefused) as caught:
        NdjsonStream(server.http, "/api/stream/event", token)
    return caught.value


def test_streams_hold_no_thread_and_no_connection_and_are_capped(server):
    server, url = server
    tokens = [account(server, f"bot{n}")[1] for n in range(3)]
    # Warm up: the lanes and the runtime start with the first streams and requests, not with the measured ones.
    for stream in [NdjsonStream(server.http, "/api/stream/event", token) for token in tokens[:2]]:
        stream.close()
    Device(server.http).join("Warm")
    threads = server.thread_names()
    assert threads["http-0_0"] == threads["http-1_0"] == 1  # the kept HTTP threads, named by kind

    opened = [NdjsonStream(server.http, "/api/stream/event", tokens[0]) for _ in range(PER_ACCOUNT)]
    account_cap = refused(server, tokens[0])
    others = [tokens[1]] * PER_ACCOUNT + [tokens[2]] * (STREAMS - 2 * PER_ACCOUNT)  # the last account has room
    opened += [NdjsonStream(server.http, "/api/stream/event", token) for token in others]
    process_cap = refused(server, tokens[2])
    try:
        assert len(opened) == STREAMS and not any(stream.ended.is_set() for stream in opened)
        # Every HTTP thread would be held by a stream: an ordinary request (a write) is served all the same.
        assert Device(server.http).join("Ann")["name"] == "Ann"
        assert server.get("/api/health")[0] == 200
        # No thread of a request context appeared for the streams, and none of a request past the kept
        # threads (http-own_0): each stream waits on the event loop.
        during = server.thread_names()
        assert during[CONTEXT_THREAD] <= threads[CONTEXT_THREAD] and during["http-own_0"] == 0
        if url:
            assert connections_to(url) <= CONNECTION_HOLDERS
    finally:
        for stream in opened:
            stream.close()
    caps = ((account_cap, "An account may hold at most 3 event streams"), (process_cap, "This server holds 8"))
    for cap, says in caps:
        assert (cap.status, cap.body["code"]) == (429, "too_many_streams") and says in cap.body["message"]
    # A closed stream gives its place back, in the process and in the account.
    NdjsonStream(server.http, "/api/stream/event", tokens[0]).close()
    assert not server.log_errors()


def ban(server: LiveServer, username: str) -> None:
    """Ban ``username`` as a moderator's script would, in a process of its own."""
    script = ("from django.contrib.auth.models import User; from django.utils import timezone; "
              "from players.services import player_ban; "
              f"player_ban(player=User.objects.get(username={username!r}).player, now=timezone.now())")
    subprocess.run([str(BIN / "python"), "manage.py", "shell", "-c", script], cwd=ROOT, env=server.env, check=True,
                   timeout=60)


@pytest.mark.postgres
@pytest.mark.redis
def test_revoking_a_token_or_banning_its_account_ends_its_open_streams_from_another_process(tmp_path):
    with on_postgres(tmp_path, 2) as ((one, two), _):
        revoke_then_ban(one, two)


def revoke_then_ban(one: LiveServer, two: LiveServer) -> None:
    device = Device(one.http)
    device.request("GET", "/api/session")
    device.expect("POST", "/api/accounts/register", {"username": "leaky", "password": PASSWORD}, ok=(201,))
    made, kept = (device.expect("POST", "/api/accounts/tokens", {"description": d}, ok=(201,)) for d in ("a", "b"))
    leaked = made["token"]
    stream = NdjsonStream(two.http, "/api/stream/event", leaked)
    other = NdjsonStream(two.http, "/api/stream/event", kept["token"])
    device.expect("DELETE", f"/api/accounts/tokens/{made['id']}", ok=(204,))
    assert stream.ended.wait(10) and not other.ended.is_set()  # only the revoked token's stream
    assert refused(two, leaked).status == 401
    ban(one, "leaky")
    assert other.ended.wait(10)
    assert refused(two, kept["token"]).body["code"] == "banned"
    assert not one.log_errors() and not two.log_errors()
    assert "after a failure" not in two.log_path.read_text()  # each ended by its message, not by an error
