"""Bad request bodies on every JSON endpoint: a 400 with the usual error body, logged as one line."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.test import Client

pytestmark = pytest.mark.django_db

JSON_ENDPOINTS = ["/api/session", "/api/rooms", "/api/accounts/register", "/api/accounts/login"]


@pytest.fixture
def device() -> Client:
    client = Client(enforce_csrf_checks=True)
    client.get("/api/session")
    return client


def post_raw(client: Client, url: str, body: str | bytes, content_type: str = "application/json"):
    return client.post(url, body, content_type=content_type, HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)


@pytest.fixture
def console_log() -> Iterator[io.StringIO]:
    """What the project's console log handler (as configured in settings.LOGGING) writes during the test."""
    # pytest's own handlers on the root logger are subclasses; the project's is a plain StreamHandler.
    handlers = [h for h in logging.getLogger().handlers if type(h) is logging.StreamHandler]
    assert len(handlers) == 1, "settings.LOGGING has one console handler"
    handler = handlers[0]
    captured = io.StringIO()
    previous = handler.setStream(captured)
    try:
        yield captured
    finally:
        handler.setStream(previous)


# --- over HTTP -----------------------------------------------------------------------------------
@pytest.mark.parametrize("url", JSON_ENDPOINTS)
@pytest.mark.parametrize("body", ["[" * 100_000, "[" * 5_000, '{"a":' * 3_000], ids=["huge", "deep", "objects"])
def test_deeply_nested_json_is_refused_before_parsing(device, url, body):
    response = post_raw(device, url, body)
    assert response.status_code == 400
    assert response.json()["code"] == "bad_request" and response.json()["message"]


@pytest.mark.parametrize("url", JSON_ENDPOINTS)
def test_a_body_over_the_size_limit_is_refused(device, url):
    body = json.dumps({"name": "x" * settings.API_MAX_BODY_BYTES})
    response = post_raw(device, url, body)
    assert response.status_code == 400
    assert response.json() == {
        "code": "bad_request",
        "message": f"The request body is larger than {settings.API_MAX_BODY_BYTES} bytes.",
    }


@pytest.mark.parametrize("body", ["{bad json", '{"name": NaN}', "\ufeff{}", '{"name": "Ann"} trailing'])
def test_malformed_json_answers_the_usual_error_body(device, body):
    response = post_raw(device, "/api/session", body.encode())
    assert response.status_code == 400 and response.json()["code"] == "bad_request"
    assert set(response.json()) == {"code", "message"}


def test_only_json_is_accepted(device):
    response = post_raw(device, "/api/session", "name=Ann", content_type="application/x-www-form-urlencoded")
    assert response.status_code == 415
    assert response.json()["code"] == "unsupported_media_type"


def test_nesting_within_the_limit_still_reaches_the_view(device):
    rules = {"turn_seconds": None}
    for _ in range(settings.API_MAX_JSON_DEPTH - 1):
        rules = {"nested": rules}
    response = post_raw(device, "/api/rooms", json.dumps(rules))
    # Parsed, then refused by the house rules (an unknown field), not by the parser.
    assert response.status_code == 400 and response.json()["code"] == "bad_rules"


# --- the log -------------------------------------------------------------------------------------
def one_line(log: io.StringIO) -> str:
    """The only line ``log`` holds (it fails if there are more: a traceback, say)."""
    lines = log.getvalue().splitlines()
    assert len(lines) == 1, log.getvalue()
    return lines[0]


def test_an_oversized_body_is_logged_as_one_line_without_a_traceback(device, console_log):
    # Larger than Django's own default limit too (2.5 MB), which is where the traceback came from.
    body = json.dumps({"name": "x" * 3_000_000})
    response = post_raw(device, "/api/session", body)
    assert response.status_code == 400 and response.json()["code"] == "bad_request"
    assert one_line(console_log).endswith("WARNING django.request Bad Request: /api/session")


def test_a_nested_body_is_logged_as_one_line(device, console_log):
    post_raw(device, "/api/rooms", "[" * 100_000)
    assert one_line(console_log).endswith("WARNING django.request Bad Request: /api/rooms")


def test_a_request_django_refuses_is_logged_as_one_line(console_log):
    response = Client().get("/api/session", HTTP_HOST="attacker.example")
    assert response.status_code == 400
    assert "ERROR django.security.DisallowedHost Invalid HTTP_HOST header: 'attacker.example'" in one_line(console_log)
