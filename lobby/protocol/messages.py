"""The rooms', the lobby's and a player's pages' channel-layer messages, registered on the bus
(:mod:`live.messages`, which encodes and decodes them): what a committed change tells their sockets (and
the bot game streams of a room's game). Services queue them in :mod:`lobby.events`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from live.messages import Message, kind


# --- a room's group (every room socket in it, and the bot game streams of its game) ------------------------
@kind
@dataclass(frozen=True, slots=True)
class RoomSnapshot(Message):
    """The whole room at a new version; ``body``: the room's JSON, encoded once by the sender."""

    TYPE: ClassVar[str] = "room.snapshot"
    snapshot: dict[str, Any]
    body: str | None = None


@kind
@dataclass(frozen=True, slots=True)
class RoomMove(Message):
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


@kind
@dataclass(frozen=True, slots=True)
class RoomSpectators(Message):
    """The room's spectator count, refreshed at a new ``version``: nothing else changed."""

    TYPE: ClassVar[str] = "room.spectators"
    version: int
    spectators: int


@kind
@dataclass(frozen=True, slots=True)
class RoomNotice(Message):
    """What happened to a seat (``code``: ``timeout``, ``away``, ``back``)."""

    TYPE: ClassVar[str] = "room.notice"
    code: str
    seat: int


@kind
@dataclass(frozen=True, slots=True)
class RoomOffer(Message):
    """What a seat did with a draw or takeback offer (``kind``; ``action``: offer, accept, decline)."""

    TYPE: ClassVar[str] = "room.offer"
    kind: str
    seat: int
    action: str


@kind
@dataclass(frozen=True, slots=True)
class RoomChat(Message):
    """A chat message; ``game``: the number of the game being played when it was written (None between)."""

    TYPE: ClassVar[str] = "room.chat"
    message: dict[str, Any]
    game: int | None = None


@kind
@dataclass(frozen=True, slots=True)
class RoomBlocks(Message):
    """For one player's sockets: whom they blocked changed; their chat is read again without those."""

    TYPE: ClassVar[str] = "room.blocks"


@kind
@dataclass(frozen=True, slots=True)
class RoomRefuse(Message):
    """The server will not keep the socket: send ``snapshot`` and ``error`` if given, then close."""

    TYPE: ClassVar[str] = "room.refuse"
    close: int
    snapshot: dict[str, Any] | None = None
    error: dict[str, Any] | None = None


# --- the lobby's sockets -------------------------------------------------------------------------------------
@kind
@dataclass(frozen=True, slots=True)
class LobbyChanged(Message):
    """The lobby's lists may have changed: look again."""

    TYPE: ClassVar[str] = "lobby.changed"


@kind
@dataclass(frozen=True, slots=True)
class LobbyPaired(Message):
    """A seek was paired into room ``code``."""

    TYPE: ClassVar[str] = "lobby.paired"
    seek: int
    code: str


@kind
@dataclass(frozen=True, slots=True)
class LobbyEnded(Message):
    """A seek ended unpaired (``reason``: ``replaced``, ``timeout``, ``expired``)."""

    TYPE: ClassVar[str] = "lobby.ended"
    seek: int
    reason: str


# --- a player's pages (every socket of the player: room, lobby, arena, the player socket) ---------------------
@kind
@dataclass(frozen=True, slots=True)
class PlayerNotification(Message):
    """A notification for every open page of a player: its ``notification`` frame encoded once (``text``),
    its text written in ``language`` (the player's choice, ``players.language.language_of``)."""

    TYPE: ClassVar[str] = "player.notification"
    text: str
    language: str | None = None


@kind
@dataclass(frozen=True, slots=True)
class PlayerEnd(Message):
    """The player's account changed under every open page (banned, its password reset, closed): each socket
    sends ``error`` and closes with ``close``, on every process."""

    TYPE: ClassVar[str] = "player.end"
    close: int
    error: dict[str, Any]
