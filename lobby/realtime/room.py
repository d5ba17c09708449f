"""The room websocket: parse a frame, call a service off the event loop, send what comes back.

Transport only. State changes go through the services; what they change reaches every connection
through the room's group once the change has committed: a ``move`` frame for a move, the whole room
for any other change. A socket is alive while it is open: daphne's own websocket pings (``config.serve``)
close one that stops answering within ``PING_TIMEOUT_SECONDS``, and the page sends nothing to prove it;
the protocol's ``ping`` frame is still answered (:mod:`lobby.realtime.presence`).

Failures of the services underneath never end a socket silently. A frame whose handling fails (the
database is down) is answered with an ``error`` frame coded ``server_error``; nothing changed, and the
socket stays open for the player to try again. A socket whose own loop fails (the channel layer lost
Redis, so this socket would hear nothing more; the database failed while opening it) is closed with
4503, so that the page reconnects and resyncs from the snapshot it gets then, and its connection is
recorded as closed like any other. Joining and leaving the room (its group, the connection's record, this
process's hold) is :class:`lobby.realtime.presence.RoomPresence`, shared with the bot game stream:
recording a close is retried; if it still fails, this process's presence loop retries it every few
seconds (and the seat shows connected until it succeeds).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext

from common import logcontext, metrics
from common.asgi import Receive, Scope, Send
from common.errors import Refused
from common.logcontext import one_line as _one_line
from live.frames import CLOSE_RETRY, SERVER_ERROR_MESSAGE, Ping, error_frame, pong_frame
from live.offload import offload
from lobby import events
from lobby.chat import selectors as chat_selectors
from lobby.chat import services as chat
from lobby.chat.visibility import ChatView
from lobby.play import moves, offers
from lobby.play.held import HELD
from lobby.protocol import frames, messages
from lobby.protocol import room as protocol
from lobby.realtime.loop import lobby_loop
from lobby.realtime.presence import RoomPresence
from lobby.realtime.socket import Consumer
from lobby.rooms import connections
from lobby.rooms import services as rooms
from lobby.rooms.selectors import room_snapshot
from players.identity import socket_address
from players.models import Player
from players.social import hidden_by

log = logging.getLogger(__name__)


# The last snapshot encoded here and its JSON: the joins at one room version share one snapshot
# (RecentSnapshots), and so one encoding.
_encoded: tuple[dict[str, Any], str] | None = None


def _body_of(snapshot: dict[str, Any]) -> str:
    global _encoded
    if _encoded is None or _encoded[0] is not snapshot:
        _encoded = (snapshot, protocol.room_body_text(snapshot))
    return _encoded[1]


@dataclass(frozen=True, slots=True)
class _Joined:
    """What a join reads: the connection's record (with the room's snapshot), the chat it may read."""

    opened: connections.Opened
    chat_view: ChatView
    chat: list[dict[str, Any]]


class RoomConsumer(Consumer):
    code: str
    player: Player | None
    last_version: int
    room_presence: RoomPresence | None = None  # made on connect
    # The last room snapshot sent (a game's end that comes as a move frame updates what the chat shows).
    last_snapshot: dict[str, Any] | None = None
    # What this connection may read of the chat (None before its first room frame), and the ids of
    # the messages in the last chat_history it was sent (a live copy of one of them is not sent again).
    chat_view: ChatView | None = None
    chat_in_history: frozenset[int] = frozenset()
    # The players whose chat this connection does not receive: those its player blocked (players.social).
    hidden: frozenset[str] = frozenset()
    apply_offloaded: Callable[[protocol.Command], Awaitable[None]] | None = None  # _apply, off the loop

    async def connect(self) -> None:
        self.code = str(self.scope["url_route"]["kwargs"]["code"]).upper()
        self.player = None
        self.last_version = 0
        lobby = lobby_loop()
        self.room_presence = RoomPresence(self, presence=lobby.presence, outbox=lobby.outbox,
                                          layer=self.channel_layer)
        try:
            await self._join(self.room_presence)
        except Refused as exc:  # unknown room (4404), closed room (4410), banned player (4403)
            await self.channel_layer.group_discard(events.room_group(self.code), self.channel_name)
            closed = await offload(room_snapshot)(self.code, include_closed=True) if exc.code == "room_closed" else None
            await self.room_refuse(events.refusal(exc, snapshot=closed))

    async def _join(self, room_presence: RoomPresence) -> None:
        """Accept the socket, join the room's group, then in one database call: who the session's player
        is, the connection's record, the snapshot and the chat history it may read; send those.

        Raises:
            Refused: no_room (unknown room), room_closed, banned.
        """
        logcontext.bind(room=self.code)
        await self.accept()
        # From here on _leave() must record the close.
        joined = await room_presence.join(lambda process: self._open(room_presence, process))
        logcontext.bind(player=self.player.id if self.player is not None else None)
        metrics.WEBSOCKETS_OPEN.inc()
        await self.hear_player(self.player.pk if self.player is not None else None)
        await self._send_snapshot(joined.opened.snapshot, history=(joined.chat_view, joined.chat))
        room_presence.shown(joined.opened)

    @property
    def joined(self) -> bool:
        """In the room's group, with a connection row (until ``_leave``)."""
        return self.room_presence is not None and self.room_presence.joined

    def _open(self, room_presence: RoomPresence, process: str) -> _Joined:
        """The join's database work, in one trip to the database thread (see ``_join``). The session's
        player is known from here on, also when the room refuses the socket (a closed room's snapshot
        still says who is looking)."""
        self.player = player = self.identify()
        logcontext.bind(player=player.id if player is not None else None)  # what connection_open logs
        opened = room_presence.record(player, process)
        self.hidden = hidden_by(player)
        view = ChatView.from_snapshot(opened.snapshot, player_id=str(player.id) if player is not None else None)
        return _Joined(opened, view, chat_selectors.chat_history(code=self.code, reads=view.reads(),
                                                                 hidden=self.hidden))

    async def disconnect(self, code: int) -> None:
        await self._leave()

    async def _leave(self) -> None:
        """Undo the join, once: the socket gauge, then the room's group, this process's hold and the
        connection's record (:meth:`RoomPresence.leave`). A no-op if the socket never joined; never raises."""
        if self.room_presence is None or not self.room_presence.joined:
            return
        metrics.WEBSOCKETS_OPEN.dec()
        await self.stop_hearing_player()
        await self.room_presence.leave()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve the socket until it closes. If its loop fails instead (the channel layer's receive
        raised: Redis went away; a database error while opening the socket or handling a room event),
        close it with 4503 so the page reconnects and resyncs, and record the close.

        When Redis goes, every socket of the process meets the failure itself: channels-redis has them
        take turns waiting on Redis, and each turn fails at once while it is down."""
        try:
            await super().__call__(scope, receive, send)
        except Exception as exc:
            log.warning("closing the room socket (%s) after a failure: %s", CLOSE_RETRY,
                        _one_line(exc), exc_info=exc if log.isEnabledFor(logging.DEBUG) else None)
            with contextlib.suppress(Exception):  # the socket may be closed already
                await self.close(code=CLOSE_RETRY)
            await self._leave()

    # --- presence (called by this process's presence loop) ----------------------------------------------
    async def reopen(self, process: str) -> None:
        """Open the connection row again under ``process``: this process was swept while it held the
        socket. The client gets the room as it is now."""
        assert self.room_presence is not None  # only a joined socket is held, and so reopened
        opened = await offload(self.room_presence.record)(self.player, process)
        await self._send_snapshot(opened.snapshot)
        self.room_presence.shown(opened)

    # --- frames from the client ------------------------------------------------------------------------
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.joined:
            return
        command = await self.command(protocol.parse_frame, text_data, bytes_data)
        if command is None:
            return
        try:
            await self._handle(command)
        except Refused as exc:
            await self.refuse(exc.code, exc.message)
        except Exception as exc:  # the database is down, say: its transaction rolled back
            log.warning("a %s frame failed: %s", protocol.frame_type(command), _one_line(exc),
                        exc_info=exc if log.isEnabledFor(logging.DEBUG) else None)
            await self.refuse("server_error", gettext(SERVER_ERROR_MESSAGE))
            await self._resync()

    async def _handle(self, command: protocol.Command) -> None:
        """Answer a ping or a sync, or run the command's service.

        Raises:
            Refused: the service refused the command (nothing changed).
        """
        if isinstance(command, Ping):  # answered from memory: liveness is the open socket itself
            await self.send_frame(pong_frame())
            return
        if isinstance(command, protocol.Sync):
            snapshot = await offload(room_snapshot)(self.code)
            if snapshot is not None:
                await self._send_snapshot(snapshot, again=True)
            return
        if self.apply_offloaded is None:  # made once a socket: a wrapper costs as much as the hop itself
            self.apply_offloaded = offload(self._apply)
        await self.apply_offloaded(command)

    async def _resync(self) -> None:
        """After a failure, send the room as it is if it moved on (a change whose broadcast failed)."""
        try:
            snapshot = await offload(room_snapshot)(self.code)
        except Exception as exc:  # still down: the client keeps its view until the next change
            log.debug("no resync: %s", _one_line(exc))
            return
        if snapshot is not None:
            await self._send_snapshot(snapshot)

    def _apply(self, command: protocol.Command) -> None:
        """Run the service for ``command`` (in the database thread)."""
        now = timezone.now()
        if self.player is None:
            raise Refused("no_player", gettext("Choose a name first: this device has no player yet."))
        player, code = self.player, self.code
        match command:
            case protocol.Sit():
                rooms.room_sit(code=code, player=player, now=now)
            case protocol.Stand():
                rooms.room_stand(code=code, player=player, now=now)
            case protocol.SetRules(changes=changes):
                rooms.room_set_rules(code=code, player=player, changes=changes, now=now)
            case protocol.Start():
                moves.game_start(code=code, player=player, now=now)
            case protocol.Drop(peg=peg, ply=ply):
                moves.game_drop(code=code, player=player, peg=peg, ply=ply, now=now)
            case protocol.Resign():
                moves.game_resign(code=code, player=player, now=now)
            case protocol.Again():
                moves.game_again(code=code, player=player, now=now)
            case protocol.Offer(kind=kind, action=action):
                offers.game_offer(code=code, player=player, kind=kind, action=action, now=now)
            case protocol.Say(chat=chat_name, text=text, phrase=phrase):
                chat.chat_say(code=code, player=player, chat=chat_name, text=text, phrase=phrase, now=now,
                              address=socket_address(self.scope))

    # --- messages from the room's group (lobby.protocol.messages) ------------------------------------
    async def room_snapshot(self, message: messages.RoomSnapshot) -> None:
        HELD.forget(self.code, message.snapshot["version"])
        await self._send_snapshot(message.snapshot, body=message.body)

    async def room_move(self, move: messages.RoomMove) -> None:
        """A move, encoded once for the whole room. Sent on even after a gap in versions: the client
        sees the gap and asks for the whole room."""
        HELD.follow(self.code, move)  # before the socket hears of it: the player's next move may follow
        if move.version <= self.last_version:
            return
        self.last_version = move.version
        await self.send(text_data=move.text)
        if move.status != "playing" and self.last_snapshot is not None and self.last_snapshot["game"]:
            # The game ended: what this connection may read of the chat may grow.
            ended = {**self.last_snapshot, "game": {**self.last_snapshot["game"], "status": move.status}}
            await self._chat_follow(ended)

    async def room_spectators(self, message: messages.RoomSpectators) -> None:
        """The spectator count at a new version (sent on after a gap too: the client asks for the room)."""
        HELD.forget(self.code, message.version)
        if message.version <= self.last_version:
            return
        self.last_version = message.version
        await self.send(text_data=protocol.spectators_frame_text(message.version, message.spectators))

    async def room_notice(self, notice: messages.RoomNotice) -> None:
        await self.send_frame(protocol.notice_frame(notice.code, notice.seat))

    async def room_offer(self, offer: messages.RoomOffer) -> None:
        await self.send_frame(protocol.offer_frame(offer.kind, offer.seat, offer.action))

    async def room_chat(self, chat: messages.RoomChat) -> None:
        """A new chat message: sent on if this connection may read it now."""
        message = chat.message
        view = self.chat_view
        if view is None or not view.delivers(chat=message["chat"], written_in_game=chat.game):
            return
        if message["id"] in self.chat_in_history:
            return  # committed before the history was read, which already carried it
        if message["player"]["id"] in self.hidden:
            return  # its writer is blocked by this connection's player
        await self.send_frame(protocol.chat_frame(message))

    async def room_blocks(self, _: messages.RoomBlocks) -> None:
        """This connection's player blocked someone or lifted a block: read whom to hide, and send the
        chat's history again as it now reads."""
        self.hidden = await offload(hidden_by)(self.player)
        if self.chat_view is not None:
            await self._send_history(await offload(chat_selectors.chat_history)(
                code=self.code, reads=self.chat_view.reads(), hidden=self.hidden))

    async def room_refuse(self, refuse: messages.RoomRefuse) -> None:
        """The server will not keep this socket: send what the message carries, then close with its code."""
        if refuse.snapshot is not None:
            await self._send_snapshot(refuse.snapshot)
        if refuse.error is not None and refuse.error.get("code") == "room_closed":
            # Sent to the whole room: its sentence again, in this socket's reader's language.
            await self.send_frame(error_frame("room_closed", events.room_closed_refusal(self.code).message))
        elif refuse.error is not None:
            await self.send_frame(refuse.error)
        await self.close(code=refuse.close)

    # --- chat ------------------------------------------------------------------------------------------
    async def _chat_follow(self, snapshot: dict[str, Any]) -> None:
        """After a room frame: what may this connection read now? When that grew (its first frame,
        the end of a seated player's game, the spectators' chat turned back on), send the history."""
        player_id = str(self.player.id) if self.player is not None else None
        view = ChatView.from_snapshot(snapshot, player_id=player_id)
        before, self.chat_view = self.chat_view, view
        if before is not None and view.reads() <= before.reads():
            return
        await self._send_history(await offload(chat_selectors.chat_history)(code=self.code, reads=view.reads(),
                                                                            hidden=self.hidden))

    async def _send_history(self, messages: list[dict[str, Any]]) -> None:
        """Send the chat history, remembering which messages it carried (their live copies are not sent)."""
        self.chat_in_history = frozenset(message["id"] for message in messages)
        await self.send_frame(protocol.chat_history_frame(messages))

    # --- sending ---------------------------------------------------------------------------------------
    async def _send_snapshot(self, snapshot: dict[str, Any], *, again: bool = False,
                             history: tuple[ChatView, list[dict[str, Any]]] | None = None,
                             body: str | None = None) -> None:
        """Send the room at ``snapshot``'s version, unless the client has it or newer (``again``: it asked
        for the room, so the same version is sent again); then the chat history, if this connection may
        read more of it now (``history``: the join's, read with the snapshot).

        The frame is the room encoded once (``body``: by the sender of a room event; else here, once for
        every socket of the process sent this same snapshot) with this connection's ``you``."""
        if snapshot["version"] < self.last_version or (snapshot["version"] == self.last_version and not again):
            return  # an older or repeated snapshot: the client already has newer
        self.last_version = snapshot["version"]
        self.last_snapshot = snapshot
        player_id = str(self.player.id) if self.player is not None else None
        if body is None:
            body = _body_of(snapshot)
        await self.send(text_data=protocol.room_frame_text(body, snapshot, player_id=player_id))
        if history is None:
            await self._chat_follow(snapshot)
            return
        self.chat_view, messages = history
        await self._send_history(messages)


class UnknownPathConsumer(Consumer):
    """Any websocket path without a route (``/ws/``, a room code without its trailing slash): refused
    like an unknown room, with close code 4404, so that nothing raises and the page stops retrying."""

    async def connect(self) -> None:
        await self.accept()
        await self.close(code=frames.CLOSE_UNKNOWN_ROOM)

