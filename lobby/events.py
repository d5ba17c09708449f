"""Events to a room's group, sent once the transaction that caused them has committed.

Every consumer connected to the room (in any server process, through the channel layer) receives
them and forwards them to its client. The payloads are built by the services (from the rows they hold)
and :mod:`lobby.protocol`; only a closed room's last snapshot is read here.

A service runs in a worker thread. Sending from there used to block that thread until the channel
layer answered, and every database call of the process waited behind it. Now a commit only hands the
message to its event loop's outbox and returns: the outbox sends in the background, in commit order
within each room (rooms concurrently), so a client never sees a room's events out of order because
of it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from common import metrics
from common.errors import Refused
from lobby import protocol
from lobby.selectors import room_snapshot

log = logging.getLogger(__name__)


def room_group(code: str) -> str:
    return f"room.{code}"


# --- what the services send -----------------------------------------------------------------------
def snapshot_on_commit(code: str, snapshot: dict[str, Any]) -> None:
    """Once committed, send ``snapshot`` (built under the room's lock) to everyone in the room."""
    _send_on_commit(code, {"type": "room.snapshot", "snapshot": snapshot})


def move_on_commit(code: str, frame: dict[str, Any]) -> None:
    """Once committed, send a ``move`` frame to everyone in the room, encoded once for all of them."""
    text = json.dumps(frame, separators=(",", ":"))
    _send_on_commit(code, {"type": "room.move", "version": frame["version"], "status": frame["status"], "text": text})


def notice_on_commit(code: str, notice: str, seat: int) -> None:
    """Once committed, tell the room what happened to a seat (``timeout``, ``away``, ``back``)."""
    _send_on_commit(code, {"type": "room.notice", "code": notice, "seat": seat})


def _send_on_commit(code: str, message: dict[str, Any]) -> None:
    transaction.on_commit(lambda: send(code, message))


# --- delivery --------------------------------------------------------------------------------------
def send(code: str, message: dict[str, Any]) -> None:
    """Send ``message`` to the room's group: through the server loop's outbox when called from a
    worker thread of a running server, else (a script, a synchronous test) at once, blocking."""
    loop = _server_loop()
    if loop is not None:
        try:
            loop.call_soon_threadsafe(_put, loop, code, message)
            return
        except RuntimeError:  # the loop closed meanwhile: send it here instead
            pass
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(room_group(code), message)
    except Exception:  # a failed broadcast must not undo a committed move; clients re-sync on reconnect
        metrics.CHANNEL_LAYER_SEND_FAILURES.inc()
        log.exception("could not send %s to room %s", message.get("type"), code, extra={"room": code})


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop that handed this worker thread its work (asgiref records it), if it still runs."""
    local = SyncToAsync.threadlocal
    loop: asyncio.AbstractEventLoop | None = getattr(local, "main_event_loop", None)
    if loop is None or getattr(local, "main_event_loop_pid", None) != os.getpid() or loop.is_closed():
        return None
    return loop


class Outbox:
    """Messages waiting for the channel layer, in one event loop.

    ``put`` is called in the loop's thread. One drain task runs while there is something to send: it
    takes every room's pending messages, sends each room's in order, all rooms at once, and repeats
    until nothing is left (then it ends, so a loop that closes leaves no task behind).
    """

    def __init__(self) -> None:
        self.pending: dict[str, list[dict[str, Any]]] = {}
        self.task: asyncio.Task[None] | None = None

    def put(self, code: str, message: dict[str, Any]) -> None:
        self.pending.setdefault(code, []).append(message)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._drain())

    async def _drain(self) -> None:
        layer = get_channel_layer()
        while self.pending:
            batch, self.pending = self.pending, {}
            if layer is not None:
                await asyncio.gather(*(_send_in_order(layer, code, messages) for code, messages in batch.items()))

    async def flush(self) -> None:
        """Wait until everything put so far has been sent (a socket leaving, tests, a server shutting down).

        The drain task is shared by every socket of the loop: a waiter that is cancelled (daphne cancels a
        closed socket's handler that overruns its time) must not cancel it, and with it every room's
        messages still waiting to be sent.
        """
        while self.task is not None and not self.task.done():
            await asyncio.shield(self.task)


async def _send_in_order(layer: Any, code: str, messages: list[dict[str, Any]]) -> None:
    for message in messages:
        try:
            await layer.group_send(room_group(code), message)
        except Exception:  # as above: logged, and the clients re-sync when they reconnect
            metrics.CHANNEL_LAYER_SEND_FAILURES.inc()
            log.exception("could not send %s to room %s", message.get("type"), code, extra={"room": code})


# Touched only from the loops' own threads (``_put`` runs there), so it needs no lock.
_outboxes: dict[asyncio.AbstractEventLoop, Outbox] = {}


def _put(loop: asyncio.AbstractEventLoop, code: str, message: dict[str, Any]) -> None:
    _outbox(loop).put(code, message)


def _outbox(loop: asyncio.AbstractEventLoop) -> Outbox:
    box = _outboxes.get(loop)
    if box is None:
        for closed in [other for other in _outboxes if other.is_closed()]:
            del _outboxes[closed]
        box = _outboxes[loop] = Outbox()
    return box


def outbox_of_this_loop() -> Outbox:
    """This event loop's outbox (created on first use)."""
    return _outbox(asyncio.get_running_loop())


def chat_on_commit(code: str, message: dict[str, Any], *, game_number: int | None) -> None:
    """Once committed, send a chat message to the room's group; each connection decides whether its
    reader may see it. ``game_number``: the game being played when it was written (None between games)."""
    _send_on_commit(code, {"type": "room.chat", "message": message, "game": game_number})


# --- sockets the server will not keep ---------------------------------------------------------------
# A "room.refuse" event makes a consumer send what it carries (a last snapshot, an error frame), then
# close with its close code.
CLOSE_CODES = {
    "banned": protocol.CLOSE_BANNED,
    "room_closed": protocol.CLOSE_ROOM_CLOSED,
    "player_changed": protocol.CLOSE_PLAYER_CHANGED,
}


def refusal(code: str, refused: Refused) -> dict[str, Any]:
    """The ``room.refuse`` event for a socket to room ``code`` whose opening was refused.

    An unknown room closes with 4404 and nothing else; a closed room first sends its last snapshot.
    """
    close = CLOSE_CODES.get(refused.code)
    if close is None:
        return {"type": "room.refuse", "close": protocol.CLOSE_UNKNOWN_ROOM}
    snapshot = room_snapshot(code, include_closed=True) if refused.code == "room_closed" else None
    return {"type": "room.refuse", "snapshot": snapshot, "error": protocol.error_frame(refused.code, refused.message),
            "close": close}


def room_closed_on_commit(code: str) -> None:
    """Once committed, every socket in the closed room gets its last snapshot and is closed (4410)."""
    refused = Refused("room_closed", f"Room {code} was closed.")
    transaction.on_commit(lambda: send(code, refusal(code, refused)))


def sockets_refuse_on_commit(channel_names: list[str], refused: Refused) -> None:
    """Once committed, these sockets get an error frame for ``refused`` and are closed with its code."""

    def refuse_all() -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        event = {"type": "room.refuse", "error": protocol.error_frame(refused.code, refused.message),
                 "close": CLOSE_CODES[refused.code]}
        for channel_name in channel_names:
            try:
                async_to_sync(layer.send)(channel_name, event)
            except Exception:  # the socket may be gone already; the others must still hear
                metrics.CHANNEL_LAYER_SEND_FAILURES.inc()
                log.exception("could not send %s to %s", refused.code, channel_name)

    if channel_names:
        transaction.on_commit(refuse_all)

