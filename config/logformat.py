"""Log formats: readable text by default, one JSON object per line with ``LOG_FORMAT=json``.

Both add the room, game and player a line is about, where known (:mod:`common.logcontext`).
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Any

from common.iso import iso
from common.logcontext import fields_of

LOG_FORMATS = ("text", "json")


def _instant(record: logging.LogRecord) -> str:
    return iso(datetime.fromtimestamp(record.created, tz=UTC)) or ""


class TextFormatter(logging.Formatter):
    """``2026-11-29T13:00:01.250Z WARNING lobby.events could not send ... [room=K7QZ2M player=...]``."""

    def format(self, record: logging.LogRecord) -> str:
        line = f"{_instant(record)} {record.levelname} {record.name} {record.getMessage()}"
        fields = fields_of(record)
        if fields:
            line += " [" + " ".join(f"{name}={value}" for name, value in fields.items()) + "]"
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        if record.stack_info:
            line += "\n" + self.formatStack(record.stack_info)
        return line


class JsonFormatter(logging.Formatter):
    """One JSON object per line: ``time``, ``level``, ``logger``, ``message``, then ``room``, ``game``,
    ``player`` where known, and ``exception`` (the traceback as text) when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": _instant(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            **fields_of(record),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        # default=str: a log line never fails because an argument is not JSON.
        return json.dumps(entry, ensure_ascii=False, default=str)
