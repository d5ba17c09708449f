"""The REST API's one parser: JSON, bounded in size and nesting before it is parsed.

Set as Django REST framework's ``DEFAULT_PARSER_CLASSES`` in ``config.settings``, so every endpoint has
it and no view repeats it. (This module must not import ``rest_framework.views``: DRF reads that
setting while importing it.)
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.parsers import JSONParser, get_encoding  # type: ignore[attr-defined]  # not in its stubs yet
from rest_framework.utils import json

from common.text import refuse_bad_text

# A JSON string (escapes included) or a bracket outside one: enough to measure nesting without parsing.
_STRING_OR_BRACKET = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')


class BadRequestBody(exceptions.ParseError):
    """A body refused before or while parsing it: 400 ``bad_request``."""

    default_code = "bad_request"


def json_depth(text: str) -> int:
    """How deeply ``text``'s arrays and objects nest (0 for a scalar); brackets inside strings do not count.

    Meant to run before parsing, in one linear pass; on malformed JSON the answer is only an estimate.
    """
    depth = deepest = 0
    for match in _STRING_OR_BRACKET.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif token in "]}":
            depth -= 1
    return deepest


class BoundedJSONParser(JSONParser):
    """JSON bodies of at most ``API_MAX_BODY_BYTES`` bytes, nested at most ``API_MAX_JSON_DEPTH`` deep.

    Both are checked before the body is parsed: Python's parser recurses once per level, and a body of
    ``[[[[...`` would exhaust the stack (a RecursionError, which would be a 500).

    A view may take larger bodies: its ``max_body_bytes`` (``study.views.RecordParseView``, a record), read
    from the parser's context, so the view declares it where it is routed and imports nothing of config.

    A parsed body is then held to :func:`common.text.refuse_bad_text`: no string in it (nor key) holds a
    NUL character or a lone surrogate, which no view then needs to check.

    Raises:
        BadRequestBody (400 ``bad_request``): too big, too deep, not JSON, or not in the declared charset.
        Refused (400 ``bad_text``): a string or key of the body holds a NUL or a lone surrogate.
    """

    def parse(  # Any: DRF's signature (the context's values vary; the body is any JSON value)
        self, stream: IO[bytes], media_type: str | None = None, parser_context: Mapping[str, Any] | None = None
    ) -> Any:
        limit: int = getattr((parser_context or {}).get("view"), "max_body_bytes", None) or settings.API_MAX_BODY_BYTES
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise BadRequestBody(_("The request body is larger than %(limit)s bytes.") % {"limit": limit})
        encoding: str = get_encoding(parser_context or {})
        try:
            text = codecs.decode(raw, encoding)
        except UnicodeDecodeError:
            raise BadRequestBody(_("The request body is not valid %(encoding)s.") % {"encoding": encoding}) from None
        if json_depth(text) > settings.API_MAX_JSON_DEPTH:
            raise BadRequestBody(_("JSON nested more than %(depth)s deep is refused.")
                                 % {"depth": settings.API_MAX_JSON_DEPTH})
        try:
            # DRF's loads refuses NaN and Infinity, which are not JSON (STRICT_JSON, on by default).
            value = json.loads(text) if self.strict else json.loads(text, parse_constant=None)
        except ValueError as exc:
            raise BadRequestBody(_("The request body is not JSON: %(reason)s") % {"reason": exc}) from None
        refuse_bad_text(value)
        return value
