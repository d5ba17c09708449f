"""The bounded JSON parser and the one-line log filter, on their own."""

from __future__ import annotations

import io
import json
import logging
import sys

import pytest
from django.conf import settings

from config.logfilters import OneLineRefusals
from config.parsers import BadRequestBody, BoundedJSONParser, json_depth


def test_server_errors_keep_their_traceback():
    def record(status_code: int) -> logging.LogRecord:
        try:
            raise RuntimeError("boom")
        except RuntimeError:
            made = logging.LogRecord("django.request", logging.ERROR, __file__, 1, "failed", None, sys.exc_info())
        made.status_code = status_code
        return made

    one_line = OneLineRefusals()
    refused, failed = record(400), record(500)
    assert one_line.filter(refused) and one_line.filter(failed)
    assert refused.exc_info is None
    assert failed.exc_info is not None and "RuntimeError: boom" in logging.Formatter().format(failed)


def parse(raw: bytes, encoding: str = "utf-8"):
    return BoundedJSONParser().parse(io.BytesIO(raw), "application/json", {"encoding": encoding})


def test_the_parser_reads_no_more_than_the_limit():
    limit = settings.API_MAX_BODY_BYTES
    exactly = json.dumps("x" * (limit - 2)).encode()
    assert len(exactly) == limit and parse(exactly) == "x" * (limit - 2)
    with pytest.raises(BadRequestBody, match="larger than"):
        parse(exactly + b" ")


def test_the_parser_counts_nesting_but_not_brackets_inside_strings():
    deepest = "[" * settings.API_MAX_JSON_DEPTH + "]" * settings.API_MAX_JSON_DEPTH
    assert parse(deepest.encode()) is not None
    with pytest.raises(BadRequestBody, match="nested"):
        parse(("[" + deepest + "]").encode())
    quoted = {"name": "[[[[" * 100 + '\\"{{{' * 100}
    assert parse(json.dumps(quoted).encode()) == quoted


def test_the_parser_honours_the_declared_charset():
    assert parse('{"name": "Zoë"}'.encode("utf-16"), "utf-16") == {"name": "Zoë"}
    with pytest.raises(BadRequestBody, match="not valid utf-8"):
        parse(b'{"name": "\xff"}')


@pytest.mark.parametrize(
    ("text", "depth"),
    [("1", 0), ("[]", 1), ('{"a": [1, {"b": []}]}', 4), ('["]]]]", "[[[["]', 1), (r'["\"[[["]', 1), ("[[]][[[]]]", 3)],
)
def test_json_depth(text, depth):
    assert json_depth(text) == depth
