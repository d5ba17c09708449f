"""A form body Django cannot read, on a real daphne process: one 400 with the usual body and one log line.

Before, a form POST in UTF-16 with a CSRF cookie made the CSRF check read the form, the read raise, and the
400 page re-run the check: daphne answered its own 500 and logged some 43 KB of chained tracebacks."""

from __future__ import annotations

import http.client
import json
import time

import pytest

from tests.livekit import LiveServer, server_env, sqlite_database

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("bad_form_live")]  # one server: one worker

FORM_UTF16 = "application/x-www-form-urlencoded; charset=utf-16"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("bad-form")
    live = LiveServer(server_env(SQLITE_PATH=sqlite_database(workdir), DEBUG="0"), log_dir=workdir).start()
    try:
        yield live
    finally:
        live.stop()


def log_lines_after(server: LiveServer, offset: int, expected: int) -> list[str]:
    """The log's lines past ``offset`` bytes once ``expected`` of them are there (1 s at most)."""
    deadline = time.monotonic() + 1.0
    while True:
        lines = server.log_path.read_bytes()[offset:].decode(errors="replace").splitlines()
        if len(lines) >= expected or time.monotonic() > deadline:
            return lines
        time.sleep(0.02)


@pytest.mark.parametrize("path", ["/admin/login/", "/", "/api/accounts/login", "/no/such/page"])
def test_a_utf16_form_with_a_csrf_cookie_is_one_400_and_one_line(server, path):
    offset = server.log_path.stat().st_size
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    body = "username=a&password=b".encode("utf-16")
    connection.request("POST", path, body=body, headers={
        "Content-Type": FORM_UTF16, "Cookie": "csrftoken=" + "a" * 32, "Host": "127.0.0.1"})
    response = connection.getresponse()
    answer = json.loads(response.read())
    connection.close()
    assert response.status == 400
    assert answer == {"code": "bad_request", "message": "A form body must be encoded in UTF-8."}
    # django.request's line, and no second within the second waited for it (the harness runs daphne with
    # no access log, as deployed behind nginx)
    lines = log_lines_after(server, offset, 2)
    assert len(lines) == 1 and "Traceback" not in "".join(lines), lines
    assert f"Bad Request: {path}" in lines[0]
