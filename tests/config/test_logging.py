"""Logs: readable text by default, one JSON object per line with LOG_FORMAT=json, naming the room, game
and player a line is about where known."""

from __future__ import annotations

import contextvars
import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from common import logcontext
from config.logformat import JsonFormatter, TextFormatter
from players.services import player_ban
from tests.roomkit import Client, make_player_async, make_room_async

ROOT = Path(__file__).resolve().parent.parent.parent
# Logging as django.setup() configures it first, without the apps it loads next (no app's ready() touches
# logging; loading them cost 1.5 s of CPU per process).
SNIPPET = """
import logging
from django.conf import settings
from django.utils.log import configure_logging
configure_logging(settings.LOGGING_CONFIG, settings.LOGGING)
from common import logcontext
logcontext.bind(room="K7QZ2M", player="p-1")
logging.getLogger("lobby.test").warning("hello %s", "there")
try:
    1 / 0
except ZeroDivisionError:
    logging.getLogger("lobby.test").exception("it broke", extra={"game": "g-9"})
"""


def run_server_logging(**env: str) -> list[str]:
    """What a server process configured by the settings writes for SNIPPET's two log calls."""
    base = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "LOG_FORMAT"}}
    done = subprocess.run([sys.executable, "-c", SNIPPET], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**base, "DJANGO_SETTINGS_MODULE": "config.settings", "SECRET_KEY": "x", **env})
    assert done.returncode == 0, done.stderr
    return done.stderr.splitlines()


def test_log_format_json_writes_one_object_per_line():
    lines = run_server_logging(LOG_FORMAT="json")
    entries = [json.loads(line) for line in lines]  # every line is one JSON object, tracebacks included
    hello, broke = entries
    assert hello.keys() == {"time", "level", "logger", "message", "room", "player"}
    assert hello["level"] == "WARNING" and hello["logger"] == "lobby.test" and hello["message"] == "hello there"
    assert hello["room"] == "K7QZ2M" and hello["player"] == "p-1"
    assert hello["time"].endswith("Z") and "T" in hello["time"]
    assert broke["game"] == "g-9" and broke["level"] == "ERROR"
    assert "ZeroDivisionError" in broke["exception"]


def test_the_default_stays_readable_text():
    lines = run_server_logging()
    assert "WARNING lobby.test hello there [room=K7QZ2M player=p-1]" in lines[0]
    assert lines[1].endswith("ERROR lobby.test it broke [room=K7QZ2M game=g-9 player=p-1]")
    assert any(line.startswith("ZeroDivisionError") for line in lines[2:])
    with pytest.raises(json.JSONDecodeError):
        json.loads(lines[0])


def test_fields_passed_with_the_call_win_over_bound_ones():
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "moved", None, None)
    record.game = "g-2"

    def format_bound() -> tuple[str, str]:
        logcontext.bind(game="g-1", room="ROOM22")
        return JsonFormatter().format(record), TextFormatter().format(record)

    as_json, as_text = contextvars.copy_context().run(format_bound)  # the binding stays in that context
    entry = json.loads(as_json)
    assert entry["game"] == "g-2" and entry["room"] == "ROOM22"
    assert as_text.endswith("moved [room=ROOM22 game=g-2]")
    assert "room" not in json.loads(JsonFormatter().format(record))


class Lines(logging.Handler):
    """Keeps what the JSON formatter makes of each record, as the server's console handler would write it."""

    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(JsonFormatter())
        self.lines: list[dict[str, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(json.loads(self.format(record)))


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("runtime_cleanup")
async def test_a_room_socket_names_its_room_and_player_in_what_it_logs():
    ann, key = await make_player_async("Ann")
    code = await make_room_async(ann)
    await sync_to_async(player_ban)(player=ann, now=timezone.now())
    lines = Lines()
    logger = logging.getLogger("lobby.rooms.connections")
    logger.addHandler(lines)
    try:
        client = Client(code, key)
        connected, _ = await client.comm.connect()
        assert connected
        await client.comm.receive_output(timeout=5)  # the "banned" error frame
        assert (await client.comm.receive_output(timeout=5))["code"] == 4403
    finally:
        logger.removeHandler(lines)
    refused = [line for line in lines.lines if "banned" in line["message"]]
    assert refused and refused[0]["room"] == code and refused[0]["player"] == str(ann.id)
