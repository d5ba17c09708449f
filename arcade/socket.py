"""The arcade's websocket (``/ws/arcade/``): the page's transport for a run's steps, on the platform's socket
(:class:`live.socket.Socket`). The bots and the start of a run use HTTP; both reach the one service,
:func:`arcade.services.run_step`, so a step answers alike on either (docs/arcade.md, "The socket").

In: ``{"type": "move", "run", "dir", "n"}``, ``{"type": "undo" | "continue" | "end", "run", "n"}`` (``n``
optional there), ``{"type": "ping"}``; any frame may carry a ``ref`` (a string or a number of the page's),
sent back in its answer. Out, in the order the frames came: ``{"type": "step", "ref", "run", ...}`` (a move's
HTTP answer), ``{"type": "error", "ref", "code", "message"[, "run"]}`` (the HTTP refusal's code; ``stale``
with the run's state), ``{"type": "pong"}``. The socket's player is the device's (its session cookie), read
when it opens and again at a frame while it has none (the page starts its first run over HTTP, which may make
the device's guest). A step tells nobody else. The socket is in its player's group
(:func:`players.services.player_group`), as every page's socket is, for one message: a ban, a closed account
or a new password closes it (``PlayerEnd``: the error frame, then 4403 or 4409), on every process.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.db import DatabaseError
from django.utils import timezone, translation
from django.utils.translation import gettext

from arcade.services import OPS, run_step
from arcade.shown import step_json
from common.errors import Refused
from live.frames import SERVER_ERROR_MESSAGE, BadFrame, decode_frame, pong_frame
from live.offload import offload
from live.socket import Socket
from players.identity import device_identity
from players.language import preferred_language, visitor_language, visitor_language_of
from players.models import Player
from players.services import player_group

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class StepFrame:
    op: str  # move, undo, continue, end; or ping
    run: object = None
    dir: object = None
    n: object = None
    ref: object = None


def parse_arcade_frame(text: str | None, data: bytes | None = None) -> StepFrame:
    """A client's frame on the arcade socket.

    Raises:
        BadFrame: not valid protocol, or a type other than ``move``, ``undo``, ``continue``, ``end``, ``ping``;
            a ``ref`` that is neither a string of at most 64 characters nor a number.
    """
    kind, frame = decode_frame(text, data)
    if kind == "ping":
        return StepFrame(op="ping")
    if kind not in OPS:
        raise BadFrame(gettext('Unknown frame type "%(type)s".') % {"type": kind[:32]})
    ref = frame.get("ref")
    if ref is not None and not ((isinstance(ref, str) and len(ref) <= 64) or type(ref) in (int, float)):
        raise BadFrame(gettext('A "ref" is a string of at most 64 characters or a number.'))
    return StepFrame(op=kind, run=frame.get("run"), dir=frame.get("dir"), n=frame.get("n"), ref=ref)


class ArcadeConsumer(Socket):
    """One page's arcade socket."""

    player: Player | None = None
    hearing: str | None = None  # the player's group, once the socket has a player

    def default_language(self) -> str:
        return visitor_language(self.scope, None)

    def identify(self) -> Player | None:
        """The device's player (None: none yet), read in the caller's database thread; the socket's language
        from it."""
        player, preferences = device_identity(self.scope.get("session_key"))
        self.language = visitor_language_of(self.scope, preference=preferred_language(preferences))
        translation.activate(self.language)
        return player

    async def connect(self) -> None:
        await self.accept()  # first, as every socket does: the handshake never waits on a database thread
        self.player = await offload(self.identify)()
        await self.hear_player()

    async def hear_player(self) -> None:
        """Join the player's group, once there is a player: its end (a ban, a closing, a new password) closes
        this socket."""
        if self.player is not None and self.hearing is None:
            self.hearing = player_group(self.player.pk)
            await self.channel_layer.group_add(self.hearing, self.channel_name)

    async def disconnect(self, code: int) -> None:
        group, self.hearing = self.hearing, None
        if group is not None:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def player_end(self, end: Any) -> None:  # Any: the rooms' PlayerEnd (lobby.protocol.messages)
        """The player was banned, its account closed or its password new: say why, and close."""
        await self.send_frame(end.error)
        await self.close(code=end.close)

    async def player_notification(self, message: Any) -> None:
        """A notification of the player: the arcade's page shows none (its bell has a socket of its own)."""

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        frame = await self.command(parse_arcade_frame, text_data, bytes_data)
        if frame is None:
            return
        if frame.op == "ping":
            await self.send_frame(pong_frame())
            return
        if self.player is None:
            self.player = await offload(self.identify)()
            await self.hear_player()
        try:
            outcome = await offload(run_step)(run_id=frame.run, player=self.player, op=frame.op, n=frame.n,
                                              direction=frame.dir, now=timezone.now())
        except Refused as exc:
            await self.send_frame(error_of(exc, frame.ref))
            return
        except DatabaseError:  # the step is not acknowledged: the page sends it again (the same n)
            log.exception("arcade step failed")
            await self.send_frame({"type": "error", "ref": frame.ref, "code": "unavailable",
                                   "message": gettext(SERVER_ERROR_MESSAGE)})
            return
        body = step_json(outcome.run, moved=outcome.moved, spawned=outcome.spawned, gained=outcome.gained)
        await self.send_frame({"type": "step", "ref": frame.ref, "run": outcome.run.run_id, **body})


def error_of(refused: Refused, ref: object) -> dict[str, Any]:
    """The ``error`` frame of a refused step (with the run's state when it is ``stale``)."""
    frame: dict[str, Any] = {"type": "error", "ref": ref, "code": refused.code, "message": refused.message}
    run = (refused.details or {}).get("run")
    if run is not None:
        frame["run"] = run
    return frame

