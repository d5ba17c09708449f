"""Two real server processes share one outbox: while the SMTP server is down a reset link and two
notification emails (challenges, one made on each process) are queued; once it is back every one arrives,
each once, its links to the address the server that wrote it listens on (no ``SITE_URL`` set). With
``DATABASE_URL`` and ``REDIS_URL`` the servers run on PostgreSQL and Redis, otherwise on one SQLite file."""

from __future__ import annotations

import contextlib
import os
import re
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.accounts.accountkit import PASSWORD
from tests.livekit import Device, LiveServer, postgres_database, running, server_env, sqlite_database
from tests.mail.smtpkit import SmtpServer

pytestmark = pytest.mark.slow

@contextlib.contextmanager
def two_servers(log_dir: Path, smtp: SmtpServer) -> Iterator[tuple[LiveServer, ...]]:
    mail = {"EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": str(smtp.port), "EMAIL_RETRY_SECONDS": "0.2",
            "EMAIL_TIMEOUT": "2", "SITE_URL": ""}  # its default: the address each server listens on
    if os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL"):
        with postgres_database(os.environ["DATABASE_URL"]) as url:
            env = server_env(DATABASE_URL=url, REDIS_URL=os.environ["REDIS_URL"],
                             CHANNEL_PREFIX=f"t{uuid.uuid4().hex[:8]}", **mail)
            with running(env, 2, log_dir=log_dir) as servers:
                yield servers
    else:
        with running(server_env(SQLITE_PATH=sqlite_database(log_dir), **mail), 2, log_dir=log_dir) as servers:
            yield servers


def wait_for(smtp: SmtpServer, count: int, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while len(smtp.received()) < count:
        assert time.monotonic() < deadline, f"{len(smtp.received())} of {count} emails arrived"
        time.sleep(0.05)


def sign_up(device: Device, name: str) -> Device:
    device.request("GET", "/api/session")
    assert device.request("POST", "/api/accounts/register", {"username": name, "password": PASSWORD})[0] == 201
    return device


def link(message, *sites: str) -> str:
    """The path of the message's link, which points at one of ``sites``."""
    found = re.search(r"(https?://[^/\s]+)(/\S+)", message.get_content())
    assert found is not None and found.group(1) in sites, (found and found.group(1), sites)
    return found.group(2)


def test_emails_queued_while_smtp_is_down_arrive_each_once_across_two_processes(tmp_path):
    smtp = SmtpServer().up()
    try:
        with two_servers(tmp_path, smtp) as (one, two):
            ann = sign_up(Device(one.http), "Ann")
            assert ann.request("POST", "/api/accounts/email", {"email": "ann@example.com"})[0] == 202
            wait_for(smtp, 1)
            assert ann.request("GET", link(smtp.received("confirm")[0], one.http), base=two.http)[0] == 200
            assert ann.request("PATCH", "/api/accounts/me", {"email_notifications": {"challenge": True}})[0] == 200
            smtp.down()
            asking = Device(two.http)
            asking.request("GET", "/api/session")
            assert asking.request("POST", "/api/accounts/password/reset", {"username": "Ann"})[0] == 202
            for name, server in (("Bob", one), ("Cyd", two)):  # each challenge notifies Ann, by email too
                challenger = sign_up(Device(server.http), name)
                body = {"turn_seconds": None, "ranked": False, "colour": "random"}
                assert challenger.request("POST", "/api/challenge/Ann", body)[0] == 201
            time.sleep(1.5)  # both processes' loops try the three, and fail, at least once
            assert len(smtp.received()) == 1
            smtp.up()
            wait_for(smtp, 4)
            time.sleep(1.0)  # a second sending of any would arrive within a poll or two
            received = smtp.received()
            assert [m["To"] for m in received] == ["ann@example.com"] * 4
            assert sorted(m["X-Email-Kind"] for m in received) == ["challenge", "challenge", "confirm", "reset"]
            subjects = sorted(m["Subject"] for m in smtp.received("challenge"))
            assert [s.split(" ")[5] for s in subjects] == ["Bob", "Cyd"]  # "3D Four in a Row: Bob (1500?) ..."
            assert all(m["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click" for m in smtp.received("challenge"))
            assert all(link(m, one.http, two.http) for m in smtp.received("challenge"))
            token = link(smtp.received("reset")[0], two.http).rsplit("/", 1)[1]
            status, body = asking.request("POST", "/api/accounts/password/reset/confirm",
                                          {"token": token, "password": "a-new-3d-password!"}, base=one.http)
            assert (status, body) == (200, {"username": "Ann"})
            logs = "".join(p.read_text() for p in tmp_path.glob("*.log"))
            assert "could not send" in logs  # it was tried while down, and retried
            assert one.log_errors() == [] and two.log_errors() == []
    finally:
        smtp.down()
