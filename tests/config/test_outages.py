"""A part that is down (here the cache, a Redis nobody listens on) answers 503 ``unavailable`` naming
it, never a 500 and a traceback; the health check names it too."""

from __future__ import annotations

import json
import logging
import sys
import time

import pytest
from django.test import Client, override_settings

from config.errors import server_error
from config.logfilters import OneLineRefusals
from harness.ports import free_port

pytestmark = pytest.mark.django_db


@pytest.fixture
def cache_down():
    """The cache is a real Redis client pointed at a port where nothing listens: every call is refused,
    as when Redis is stopped."""
    down = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                        "LOCATION": f"redis://127.0.0.1:{free_port()}/0"}}
    with override_settings(CACHES=down):
        yield


def post(client, url, data):
    return client.post(url, data, content_type="application/json",
                       HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)


def test_login_while_the_cache_is_down_answers_503_naming_it(cache_down):
    device = Client(enforce_csrf_checks=True)
    assert device.get("/api/session").status_code == 200  # the database is up: the session works
    started = time.monotonic()
    response = post(device, "/api/accounts/login", {"username": "ann", "password": "four-in-a-row-3d!"})
    assert response.status_code == 503
    body = response.json()
    assert body["code"] == "unavailable" and "cache" in body["message"]
    assert time.monotonic() - started < 5  # refused at once, not after a long retry


def test_the_health_check_names_the_cache_when_it_is_down(cache_down, client):
    response = client.get("/api/health")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error" and body["database"] == "ok" and body["channel_layer"] == "ok"
    assert body["cache"].startswith("error: ")


def test_an_outage_is_logged_as_one_line_a_bug_keeps_its_traceback(cache_down):
    from django.core.cache import cache

    def record_of(exc: BaseException, status: int) -> logging.LogRecord:
        """A record as Django's ``log_response`` makes it for a failed request."""
        try:
            raise exc
        except BaseException:
            info = sys.exc_info()
        record = logging.LogRecord("django.request", logging.ERROR, __file__, 1, "failed", (), info)
        record.status_code = status
        return record

    try:
        cache.get("anything")
    except Exception as exc:
        outage = exc
    else:
        pytest.fail("the cache answered")
    one_line = record_of(outage, 503)
    assert OneLineRefusals().filter(one_line) and one_line.exc_info is None
    bug = record_of(ValueError("a bug"), 500)
    assert OneLineRefusals().filter(bug) and bug.exc_info is not None


def test_outside_a_rest_view_a_part_that_is_down_is_503_and_anything_else_500(cache_down, rf):
    """``handler500``: Django calls it inside the ``except`` of the failure (a session saved after the
    view, say)."""
    from django.core.cache import cache

    request = rf.get("/")
    try:
        cache.get("anything")
    except Exception:
        response = server_error(request)
    assert response.status_code == 503
    assert json.loads(response.content)["code"] == "unavailable"
    try:
        raise ValueError("a bug")
    except ValueError:
        assert server_error(request).status_code == 500
