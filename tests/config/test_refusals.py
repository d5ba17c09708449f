"""The one path from a refusal to HTTP: the table from code to status (``common.errors``), the REST API's
handler (``config.api``) with its middleware for the views outside DRF, and the bot streams' answer
(``bots.streams.base``) that read it, and the schema that documents it."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from django.http import HttpRequest
from django.test import Client
from rest_framework import serializers

from bots.streams.base import refusal
from common.errors import CODES_BY_STATUS, DEFAULT_STATUS, STATUS_OF_CODE, RateLimited, Refused, status_for
from config.api import RefusalMiddleware, api_exception_handler

ROOT = Path(__file__).resolve().parents[2]
APPS = ["arcade", "bots", "common", "config", "games", "lobby", "players", "puzzles", "ratings", "tournaments"]


def answered(exc: Exception) -> tuple[int, dict[str, str], dict[str, str]]:
    """(status, body, headers) of the REST API's answer to ``exc`` raised in a view."""
    response = api_exception_handler(exc, {})
    assert response is not None
    return response.status_code, response.data, dict(response.items())


def plain(exc: Exception) -> tuple[int, dict[str, str], dict[str, str]] | None:
    """(status, body, headers) of the answer to ``exc`` raised in a plain (or async) Django view; None: Django's."""
    response = RefusalMiddleware(lambda request: None).process_exception(HttpRequest(), exc)
    return None if response is None else (response.status_code, json.loads(response.content), dict(response.items()))


def streamed(exc: Refused) -> tuple[int, dict[str, str], dict[str, str]]:
    """(status, body, headers) of a bot stream's answer to ``exc`` raised before it opens."""
    response = refusal(exc)
    return response.status_code, json.loads(response.content), dict(response.items())


@pytest.mark.parametrize("code", sorted(STATUS_OF_CODE))
def test_every_code_in_the_table_answers_its_status_over_rest_and_streams(code):
    exc = Refused(code, "A sentence.")
    for status, body, _ in (answered(exc), plain(exc), streamed(exc)):
        assert status == STATUS_OF_CODE[code]
        assert body == {"code": code, "message": "A sentence."}


def test_a_code_the_table_does_not_list_is_a_400_not_a_500():
    assert "no_such_code_anywhere" not in STATUS_OF_CODE
    exc = Refused("no_such_code_anywhere", "Something was refused.")
    assert DEFAULT_STATUS == 400
    for status, body, _ in (answered(exc), plain(exc), streamed(exc)):
        assert (status, body) == (400, {"code": "no_such_code_anywhere", "message": "Something was refused."})


@pytest.mark.parametrize("seconds", [0, 42])
def test_a_rate_limit_is_a_429_with_retry_after(seconds):
    exc = RateLimited(seconds, message="Slow down.")
    for status, body, headers in (answered(exc), plain(exc), streamed(exc)):
        assert status == 429 and headers["Retry-After"] == str(seconds)
        assert body == {"code": "rate_limited", "message": f"Slow down. Try again in {seconds} seconds."}
    assert "Retry-After" not in answered(Refused("rate_limited", "A chat's own limit."))[2]


def test_outside_drf_only_a_refusal_is_answered_anything_else_is_django_s():
    assert plain(ValueError("a bug")) is None
    assert plain(PermissionError("not a refusal either")) is None


def test_a_validation_error_is_the_one_body_with_every_field_named():
    class Query(serializers.Serializer[object]):
        limit = serializers.IntegerField(max_value=100)
        offset = serializers.IntegerField(min_value=0)

    query = Query(data={"limit": "500", "offset": "-1"})
    with pytest.raises(serializers.ValidationError) as raised:
        query.is_valid(raise_exception=True)
    status, body, _ = answered(raised.value)
    assert status == 400
    assert body == {
        "code": "bad_request",
        "message": "limit: Ensure this value is less than or equal to 100.; "
        "offset: Ensure this value is greater than or equal to 0.",
    }


def test_no_code_has_two_statuses():
    codes = [code for group in CODES_BY_STATUS.values() for code in group]
    assert len(codes) == len(set(codes)) == len(STATUS_OF_CODE)
    assert status_for("seat_taken") == 409 and status_for("room_closed") == 410


def raised_codes() -> set[str]:
    """Every code the project's source raises as a literal: ``Refused("code", ...)``,
    ``RateLimited(..., code="code")``."""
    codes: set[str] = set()
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                    continue
                if node.func.id == "Refused" and node.args and isinstance(node.args[0], ast.Constant):
                    codes.add(node.args[0].value)
                if node.func.id == "RateLimited":
                    codes.update(k.value.value for k in node.keywords
                                 if k.arg == "code" and isinstance(k.value, ast.Constant))
    return codes


def test_the_table_lists_every_code_the_project_raises():
    raised = raised_codes()
    assert {"no_room", "seat_taken", "bad_rules", "not_found", "no_token", "too_many_streams"} <= raised  # seen
    assert raised - set(STATUS_OF_CODE) == set()


@pytest.mark.django_db
def test_the_schema_gives_every_error_the_one_body_and_the_table_s_status():
    schema = Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    error_schemas = {name for name in schema["components"]["schemas"] if "Error" in name}
    assert error_schemas == {"ErrorOut"}
    assert set(schema["components"]["schemas"]["ErrorOut"]["properties"]) == {"code", "message"}
    checked = 0
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            for status, response in operation["responses"].items():
                if int(status) < 400:
                    continue
                where = f"{method.upper()} {path} {status}"
                assert response["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/ErrorOut"}
                # "code, code", "code: why; code", "code (why)": each item starts with a code of the table
                named = [re.match(r"\s*([a-z_]*)", item).group(1) for item in re.split("[,;]", response["description"])]
                assert all(code in STATUS_OF_CODE for code in named), f"{where}: {response['description']}"
                assert {code: status_for(code) for code in named} == dict.fromkeys(named, int(status)), where
                checked += 1
    assert checked > 40
