"""What the rooms' and the lobby's services have to tell once their transaction commits: a room's new
snapshot or move, a notice, a chat message, a socket to refuse, a seek paired or ended, the lobby's lists
changed, a timer due now. Each helper here builds its message and queues it with the platform's
:func:`live.events.on_commit` (nothing is sent before the commit; the platform's one delivery takes it
to the sockets in commit order).

The messages are :mod:`lobby.protocol.messages`' dataclasses; the frames they carry are built by
:mod:`lobby.protocol`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.translation import gettext

from common.errors import Refused
from live.events import Signal, ToGroup, ToSockets, deliver, on_commit
from live.frames import error_frame
from live.messages import encode
from lobby.protocol import frames, messages
from lobby.protocol import room as room_protocol
from notifications.protocol import notification_frame
from notifications.services import Notified
from players.services import player_group

__all__ = ["player_group"]  # every open page's group, named by the players layer (the arcade's socket is in it)

LOBBY_GROUP = "lobby"  # every lobby socket of every process


def room_group(code: str) -> str:
    """The channel-layer group of every socket connected to room ``code``."""
    return f"room.{code}"


# --- the lobby's signals to its loop service (lobby.realtime.loop.LobbyLoop) ----------------------------
@dataclass(frozen=True, slots=True)
class ListsChanged(Signal):
    """The lobby's lists (open rooms, live games) may have changed: debounced by each process's feed."""

    def unheard(self) -> ToGroup:
        """No loop of this process runs (a script, a synchronous test): the lobby group hears it at once."""
        return ToGroup(LOBBY_GROUP, messages.LobbyChanged())


@dataclass(frozen=True, slots=True)
class WakeUp(Signal):
    """Something falls due at ``at`` (None: now): the process's tickers look then, unless they look before."""

    at: datetime | None = None


# --- a room's events ----------------------------------------------------------------------------------
def snapshot_on_commit(code: str, snapshot: dict[str, Any]) -> None:
    """Once committed, send ``snapshot`` (built under the room's lock) to everyone in the room."""
    message = messages.RoomSnapshot(snapshot, room_protocol.room_body_text(snapshot))
    on_commit(ToGroup(room_group(code), message))


def move_on_commit(code: str, frame: dict[str, Any]) -> None:
    """Once committed, send a ``move`` frame to everyone in the room, encoded once for all of them."""
    text = json.dumps(frame, separators=(",", ":"))
    on_commit(ToGroup(room_group(code), messages.RoomMove(
        frame["version"], frame["status"], text, game=frame["game"], ply=frame["ply"], peg=frame["peg"],
        seat=frame["seat"], cpu=frame["cpu"])))


def spectators_on_commit(code: str, version: int, spectators: int) -> None:
    """Once committed, tell everyone in the room its new spectator count (a ``spectators`` frame)."""
    on_commit(ToGroup(room_group(code), messages.RoomSpectators(version, spectators)))


def notice_on_commit(code: str, notice: str, seat: int) -> None:
    """Once committed, tell the room what happened to a seat (``timeout``, ``away``, ``back``)."""
    on_commit(ToGroup(room_group(code), messages.RoomNotice(notice, seat)))


def offer_on_commit(code: str, kind: str, seat: int, action: str) -> None:
    """Once committed, tell the room what ``seat`` did with a ``kind`` offer (an ``offer`` frame)."""
    on_commit(ToGroup(room_group(code), messages.RoomOffer(kind, seat, action)))


def blocks_changed_on_commit(channels: tuple[str, ...]) -> None:
    """Once committed, these room sockets read their chat again (whom their player blocked changed)."""
    on_commit(ToSockets(channels, messages.RoomBlocks()))


def chat_on_commit(code: str, message: dict[str, Any], *, game_number: int | None) -> None:
    """Once committed, send a chat message to the room's group; each connection decides whether its
    reader may see it. ``game_number``: the game being played when it was written (None between games)."""
    on_commit(ToGroup(room_group(code), messages.RoomChat(message, game_number)))


# --- sockets the server will not keep -----------------------------------------------------------------
# A RoomRefuse makes a consumer send what it carries (a last snapshot, an error frame), then close with
# its close code.
CLOSE_CODES = {
    "banned": frames.CLOSE_BANNED,
    "room_closed": frames.CLOSE_ROOM_CLOSED,
    "player_changed": frames.CLOSE_PLAYER_CHANGED,
}


def refusal(refused: Refused, *, snapshot: dict[str, Any] | None = None) -> messages.RoomRefuse:
    """The message for a socket refused with ``refused``.

    An unknown room (any code without a close code of its own) closes with 4404 and nothing else; a
    closed room first sends its last ``snapshot``.
    """
    close = CLOSE_CODES.get(refused.code)
    if close is None:
        return messages.RoomRefuse(frames.CLOSE_UNKNOWN_ROOM)
    return messages.RoomRefuse(close, snapshot=snapshot, error=error_frame(refused.code, refused.message))


def player_sockets_end_on_commit(player_id: object, refused: Refused) -> None:
    """Once committed, every open socket of the player, on every process (its player group: the room, lobby,
    arena and player sockets), gets an error frame for ``refused`` and is closed with its code."""
    message = messages.PlayerEnd(CLOSE_CODES[refused.code], error_frame(refused.code, refused.message))
    on_commit(ToGroup(player_group(player_id), message))


def room_closed_refusal(code: str) -> Refused:
    """``room_closed`` for room ``code``, in the active language."""
    return Refused("room_closed", gettext("Room %(code)s was closed.") % {"code": code})


def room_closed_on_commit(code: str, snapshot: dict[str, Any]) -> None:
    """Once committed, every socket in the closed room gets its last ``snapshot`` and is closed (4410).
    Each socket writes the error frame's sentence again in its own reader's language
    (``lobby.realtime.room``): the room's readers do not share one."""
    on_commit(ToGroup(room_group(code), refusal(room_closed_refusal(code), snapshot=snapshot)))


def sockets_refuse_on_commit(channel_names: list[str], refused: Refused) -> None:
    """Once committed, these sockets get an error frame for ``refused`` and are closed with its code."""
    if channel_names:
        message = messages.RoomRefuse(CLOSE_CODES[refused.code], error=error_frame(refused.code,
                                                                                          refused.message))
        on_commit(ToSockets(tuple(channel_names), message))


# --- the lobby's events ---------------------------------------------------------------------------------
def seek_paired_on_commit(*, channel_name: str, seek_id: int, code: str) -> None:
    """Once committed, tell the seek's socket the code of the room it was paired into."""
    on_commit(ToSockets((channel_name,), messages.LobbyPaired(seek_id, code)))


def seek_ended_on_commit(*, channel_name: str, seek_id: int, reason: str) -> None:
    """Once committed, tell the seek's socket its seek ended unpaired (``replaced``, ``timeout``, ``expired``,
    ``banned``, ``closed``)."""
    on_commit(ToSockets((channel_name,), messages.LobbyEnded(seek_id, reason)))


def lists_changed_on_commit() -> None:
    """Once committed, have every lobby socket (in every process) refresh its open rooms and live games."""
    on_commit(ListsChanged())


# Encoded, for a sender straight to the channel layer (the lobby feed).
LISTS_CHANGED_MESSAGE: dict[str, Any] = encode(messages.LobbyChanged())


# --- a player's pages ----------------------------------------------------------------------------------------
def notification_delivered(notified: Notified) -> None:
    """A handler of ``notifications.services.NOTIFIED`` (after commit): every open page of the player, on
    any process, receives the ``notification`` frame, encoded once here."""
    text = json.dumps(notification_frame(notified.notification, unread=notified.unread), separators=(",", ":"))
    deliver(ToGroup(player_group(notified.player_id), messages.PlayerNotification(text, notified.language)))


# --- timers -----------------------------------------------------------------------------------------------
def wake_on_commit(at: datetime | None = None) -> None:
    """Once committed, tell this process's tickers that something falls due at ``at`` (None: now), its row
    visible to them: they look then, unless they look before anyway."""
    on_commit(WakeUp(at))
