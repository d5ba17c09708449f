"""The room websocket when a service fails: every frame is answered, nothing half-applied, one log line,
and a closed socket's record survives a failing database.

Faults are injected by making a real service raise ``OperationalError`` (as a locked or lost database
does); everything else is the real ASGI application on the real test database.
"""

from __future__ import annotations

import logging

import pytest
from channels.testing import WebsocketCommunicator
from django.db import OperationalError

from config.asgi import application
from config.logformat import TextFormatter
from games.models import Move
from live.offload import offload
from lobby import timers
from lobby.chat import services as chat
from lobby.models import Connection
from lobby.play import moves as play
from lobby.play.held import HELD
from lobby.realtime import presence
from lobby.realtime import room as consumers
from lobby.realtime.loop import lobby_loop
from lobby.rooms import connections
from lobby.rooms import services as lobby_services
from tests.roomkit import Client, at_ply, make_player_async, make_room_async, seated_pair

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("runtime_cleanup")]


def failing(*args, **kwargs):
    raise OperationalError("database is locked")


class Lines(logging.Handler):
    """The consumer's log lines as the server writes them (formatted where they are logged, so with
    the room and player the socket's task has bound)."""

    def __init__(self) -> None:
        super().__init__()
        self.formatter = TextFormatter()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@pytest.fixture
def logged():
    """The room socket's lines, and its presence's (joining and leaving the room: RoomPresence)."""
    loggers = [logging.getLogger(name) for name in ("lobby.realtime.room", "lobby.realtime.presence")]
    handler, levels = Lines(), [logger.level for logger in loggers]
    for logger in loggers:
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
    yield handler
    for logger, level in zip(loggers, levels, strict=True):
        logger.removeHandler(handler)
        logger.setLevel(level)


def is_line_about(line: str, code: str) -> bool:
    """One line (no traceback below it) about room ``code``."""
    return "\n" not in line and f"[room={code} " in line


@offload
def moves_in(code):
    return list(Move.objects.filter(game__room__code=code).order_by("ply").values_list("peg", flat=True))


@pytest.mark.parametrize("held", [False, True], ids=["locked", "held"])
async def test_a_drop_that_fails_inside_its_transaction_is_answered_and_rolled_back(monkeypatch, logged, held):
    code, a, b = await seated_pair()
    await a.send(type="start")
    await a.wait_room(at_ply(0))
    version = a.room["version"]
    # Working out the game's next due time fails. Under the room's lock the move row is written by then:
    # the whole transaction must go (the version bump with it); from the held room nothing is written yet.
    if not held:
        HELD.clear()
    monkeypatch.setattr(timers, "due_time", failing)
    await a.drop("b2")
    error = await a.error()
    assert error["code"] == "server_error" and error["message"]
    monkeypatch.undo()
    assert await moves_in(code) == []
    # The socket lives on, and the same move (still at ply 0) now goes through.
    await a.send(type="ping")
    await a.wait("pong")
    await a.drop("b2")
    room = await b.wait_room(at_ply(1))
    assert room["game"]["moves"] == ["b2"] and room["version"] == version + 1
    assert await moves_in(code) == ["b2"]
    [line] = logged.lines
    assert "WARNING lobby.realtime.room a drop frame failed: OperationalError: database is locked" in line
    assert is_line_about(line, code)
    await a.close()
    await b.close()


@pytest.mark.parametrize(
    ("frame", "module", "name"),
    [
        ({"type": "sit"}, lobby_services, "room_sit"),
        ({"type": "stand"}, lobby_services, "room_stand"),
        ({"type": "rules", "cpu_level": 2}, lobby_services, "room_set_rules"),
        ({"type": "start"}, play, "game_start"),
        ({"type": "drop", "peg": "a1", "ply": 0}, play, "game_drop"),
        ({"type": "resign"}, play, "game_resign"),
        ({"type": "again"}, play, "game_again"),
        ({"type": "say", "chat": "players", "text": "hello"}, chat, "chat_say"),
        ({"type": "sync"}, consumers, "room_snapshot"),
    ],
)
async def test_every_frame_type_is_answered_with_server_error_when_its_service_fails(frame, module, name,
                                                                                     monkeypatch, logged):
    ann, key = await make_player_async("Ann")
    code = await make_room_async(ann)
    a = await Client(code, key).connect()
    monkeypatch.setattr(module, name, failing)
    await a.send(**frame)
    assert (await a.error())["code"] == "server_error"
    [line] = logged.lines
    assert f" a {frame['type']} frame failed: OperationalError: database is locked" in line
    assert is_line_about(line, code)
    monkeypatch.undo()
    await a.send(type="ping")
    await a.wait("pong")  # still connected
    await a.close()


async def test_the_traceback_is_logged_at_debug_level_only(monkeypatch, logged):
    logging.getLogger("lobby.realtime.room").setLevel(logging.DEBUG)
    ann, key = await make_player_async("Ann")
    code = await make_room_async(ann)
    a = await Client(code, key).connect()
    monkeypatch.setattr(lobby_services, "room_stand", failing)
    await a.send(type="stand")
    await a.error()
    [line] = [line for line in logged.lines if "frame failed" in line]
    first, *traceback = line.splitlines()
    assert first.endswith(f"a stand frame failed: OperationalError: database is locked [room={code} player={ann.id}]")
    assert traceback[0] == "Traceback (most recent call last):"
    assert traceback[-1] == "django.db.utils.OperationalError: database is locked"
    await a.close()


async def test_a_failed_handshake_closes_with_4503_and_the_next_attempt_joins(monkeypatch):
    ann, key = await make_player_async("Ann")
    code = await make_room_async(ann)
    monkeypatch.setattr(connections, "connection_open", failing)
    headers = [(b"origin", b"http://localhost"), (b"cookie", f"sessionid={key}".encode())]
    comm = WebsocketCommunicator(application, f"/ws/rooms/{code}/", headers=headers)
    connected, _ = await comm.connect(timeout=5)
    assert connected
    assert await comm.receive_output(timeout=5) == {"type": "websocket.close", "code": 4503}
    monkeypatch.undo()
    a = await Client(code, key).connect()  # what the page does next: reconnect and resync
    assert a.room["seats"][0]["connected"] is True
    await a.close()


async def test_recording_a_closed_socket_is_retried_and_the_seat_disconnects(monkeypatch):
    monkeypatch.setattr(presence, "RECORD_CLOSE_RETRY_DELAYS", (0.05, 0.05))
    code, a, b = await seated_pair()
    real_close = connections.connection_close
    calls = []

    def fails_once(**kwargs):
        calls.append(kwargs["channel_name"])
        if len(calls) == 1:
            failing()
        real_close(**kwargs)

    monkeypatch.setattr(connections, "connection_close", fails_once)
    await b.close()
    room = await a.wait_room(lambda r: not r["seats"][1]["connected"])
    assert room["seats"][1]["player"] is not None and len(calls) == 2
    await a.close()


async def test_a_close_that_cannot_be_recorded_is_left_to_the_presence_loop(monkeypatch, logged):
    monkeypatch.setattr(presence, "RECORD_CLOSE_RETRY_DELAYS", (0.01, 0.01))
    code, a, b = await seated_pair()
    monkeypatch.setattr(connections, "connection_close", failing)
    await b.comm.disconnect(timeout=5)
    lines = [line for line in logged.lines if "closed socket" in line]
    assert [line.split(" lobby.realtime.presence ")[1].split(";")[0] for line in lines] == [
        f"could not record the closed socket (attempt {n} of 3" for n in (1, 2, 3)
    ]
    assert "(attempt 3 of 3; the presence loop will)" in lines[-1] and all(is_line_about(line, code) for line in lines)
    monkeypatch.undo()
    bob = b.room["you"]["player"]
    assert await offload(Connection.objects.filter(room__code=code, player_id=bob).count)() == 1
    # The presence loop's next sweep (every few seconds) records the close: Bob's seat disconnects.
    await lobby_loop().presence.close_unclosed()
    assert await offload(Connection.objects.filter(room__code=code, player_id=bob).count)() == 0
    room = await a.wait_room(lambda r: not r["seats"][1]["connected"])
    assert room["seats"][0]["connected"] is True
    await a.close()
