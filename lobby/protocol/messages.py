"""The channel layer's messages: what a committed change tells the sockets and streams of every process,
as dataclasses, encoded and decoded here and nowhere else.

Services queue them in :mod:`lobby.events` (the bot API and the arenas in theirs); the runtime encodes
each once, when it hands it to its loop's outbox; a socket (``lobby.realtime.socket.Consumer``) or a bot
stream (``bots.streams.base.Listener``) decodes what it receives and reads it by attribute.

On the wire (to Redis, through msgpack) a message is the dict the channel layer carries: its ``type``
names the consumer handler that receives it (``room.move`` -> ``room_move``, as Channels dispatches), then
each field by name, but for a field that is None, left out (its default). A group send reaches every
socket of a process as one dict (``config.channel_layer``); the last one decoded is kept, so a move to a
room of 300 is decoded once in each process, not 300 times.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar


class UnknownMessage(ValueError):
    """A dict from the channel layer whose ``type`` is none of these messages."""


# --- a room's group (every room socket in it, and the bot game streams of its game) ------------------------
@dataclass(frozen=True, slots=True)
class RoomSnapshot:
    """The whole room at a new version; ``body``: the room's JSON, encoded once by the sender."""

    TYPE: ClassVar[str] = "room.snapshot"
    snapshot: dict[str, Any]
    body: str | None = None


@dataclass(frozen=True, slots=True)
class RoomMove:
    """A move: its ``move`` frame encoded once for all (``text``), with what a socket reads of it, and what
    a process holding the room follows it by (``lobby.play.held``): the game, the plies after the move,
    the peg, the seat and whether the CPU played it."""

    TYPE: ClassVar[str] = "room.move"
    version: int
    status: str
    text: str
    game: str | None = None
    ply: int | None = None
    peg: str | None = None
    seat: int | None = None
    cpu: bool | None = None


@dataclass(frozen=True, slots=True)
class RoomSpectators:
    """The room's spectator count, refreshed at a new ``version``: nothing else changed."""

    TYPE: ClassVar[str] = "room.spectators"
    version: int
    spectators: int


@dataclass(frozen=True, slots=True)
class RoomNotice:
    """What happened to a seat (``code``: ``timeout``, ``away``, ``back``)."""

    TYPE: ClassVar[str] = "room.notice"
    code: str
    seat: int


@dataclass(frozen=True, slots=True)
class RoomOffer:
    """What a seat did with a draw or takeback offer (``kind``; ``action``: offer, accept, decline)."""

    TYPE: ClassVar[str] = "room.offer"
    kind: str
    seat: int
    action: str


@dataclass(frozen=True, slots=True)
class RoomChat:
    """A chat message; ``game``: the number of the game being played when it was written (None between)."""

    TYPE: ClassVar[str] = "room.chat"
    message: dict[str, Any]
    game: int | None = None


@dataclass(frozen=True, slots=True)
class RoomBlocks:
    """For one player's sockets: whom they blocked changed; their chat is read again without those."""

    TYPE: ClassVar[str] = "room.blocks"


@dataclass(frozen=True, slots=True)
class RoomRefuse:
    """The server will not keep the socket: send ``snapshot`` and ``error`` if given, then close."""

    TYPE: ClassVar[str] = "room.refuse"
    close: int
    snapshot: dict[str, Any] | None = None
    error: dict[str, Any] | None = None


# --- the lobby's sockets -------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class LobbyChanged:
    """The lobby's lists may have changed: look again."""

    TYPE: ClassVar[str] = "lobby.changed"


@dataclass(frozen=True, slots=True)
class LobbyPaired:
    """A seek was paired into room ``code``."""

    TYPE: ClassVar[str] = "lobby.paired"
    seek: int
    code: str


@dataclass(frozen=True, slots=True)
class LobbyEnded:
    """A seek ended unpaired (``reason``: ``replaced``, ``timeout``, ``expired``)."""

    TYPE: ClassVar[str] = "lobby.ended"
    seek: int
    reason: str


# --- a player's pages (every socket of the player: room, lobby, arena, the player socket) ---------------------
@dataclass(frozen=True, slots=True)
class PlayerNotification:
    """A notification for every open page of a player: its ``notification`` frame encoded once (``text``),
    its text written in ``language`` (the player's choice, ``players.language.language_of``)."""

    TYPE: ClassVar[str] = "player.notification"
    text: str
    language: str | None = None


# --- an account's event streams, an arena's sockets, the health check --------------------------------------
@dataclass(frozen=True, slots=True)
class AccountLine:
    """A line for every event stream of an account (``bots.events``)."""

    TYPE: ClassVar[str] = "account.line"
    line: dict[str, Any]


@dataclass(frozen=True, slots=True)
class AccountStreamsEnd:
    """End an account's open streams (``bots.events``): those opened with token ``token``, or all of them
    (``None``: the account was banned)."""

    TYPE: ClassVar[str] = "account.streams_end"
    token: int | None = None


@dataclass(frozen=True, slots=True)
class TournamentChanged:
    """An arena changed: its pages look again."""

    TYPE: ClassVar[str] = "tournament.changed"


@dataclass(frozen=True, slots=True)
class TournamentPaired:
    """A player of an arena was paired: their game is ``game`` in room ``code``."""

    TYPE: ClassVar[str] = "tournament.paired"
    code: str
    game: str


@dataclass(frozen=True, slots=True)
class HealthPing:
    """The health check's message to itself, through Redis."""

    TYPE: ClassVar[str] = "health.ping"


Message = (RoomSnapshot | RoomMove | RoomSpectators | RoomNotice | RoomOffer | RoomChat | RoomBlocks | RoomRefuse
           | LobbyChanged | LobbyPaired | LobbyEnded | PlayerNotification | AccountLine | AccountStreamsEnd
           | TournamentChanged | TournamentPaired | HealthPing)

_KINDS: tuple[type[Message], ...] = typing.get_args(Message)
# Each kind by its type, with its fields' names and whether each must be on the wire (it has no default).
KINDS: dict[str, tuple[type[Message], tuple[tuple[str, bool], ...]]] = {
    kind.TYPE: (kind, tuple((field.name, field.default is dataclasses.MISSING)
                            for field in dataclasses.fields(kind)))
    for kind in _KINDS
}
_FIELDS: dict[type[Message], tuple[str, ...]] = {kind: tuple(name for name, _ in fields)
                                                for kind, fields in KINDS.values()}


def encode(message: Message) -> dict[str, Any]:
    """The dict the channel layer carries for ``message`` (its fields that are None left out)."""
    encoded: dict[str, Any] = {"type": message.TYPE}
    for name in _FIELDS[type(message)]:
        value = getattr(message, name)
        if value is not None:
            encoded[name] = value
    return encoded


# The last dict decoded and its message (the same dict reaches every socket of a process; holding it keeps
# its id from being reused). A tuple, read and replaced whole: safe from any thread.
_last: tuple[Mapping[str, Any], Message] | None = None


def decode(message: Mapping[str, Any]) -> Message:
    """The message the channel layer carried as ``message``.

    Raises:
        UnknownMessage: its ``type`` is none of this module's, or a field without a default is missing.
    """
    global _last
    last = _last
    if last is not None and last[0] is message:
        return last[1]
    kind_fields = KINDS.get(message.get("type", ""))
    if kind_fields is None:
        raise UnknownMessage(f"no channel-layer message has the type {message.get('type')!r}")
    kind, fields = kind_fields
    try:
        values: list[Any] = [message[name] if required else message.get(name) for name, required in fields]
    except KeyError as exc:
        raise UnknownMessage(f"a {kind.TYPE} message without its {exc.args[0]!r}") from None
    decoded = kind(*values)
    _last = (message, decoded)
    return decoded
