"""The channel layer's messages (the bus, ``live.messages``, and every app's kinds on it): each kind encoded
and decoded back to itself, through msgpack as Redis carries it, no bigger than the dicts sent before, a bad
dict refused, and two kinds of one type refused."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import msgpack
import pytest

from bots.messages import AccountLine, AccountStreamsEnd
from config.health import HealthPing
from live import messages
from lobby.protocol.messages import (
    LobbyChanged,
    LobbyEnded,
    LobbyPaired,
    PlayerEnd,
    PlayerNotification,
    RoomBlocks,
    RoomChat,
    RoomMove,
    RoomNotice,
    RoomOffer,
    RoomRefuse,
    RoomSnapshot,
    RoomSpectators,
)
from tournaments.messages import TournamentChanged, TournamentPaired

SNAPSHOT = {"code": "ABC123", "version": 7, "seats": [{"seat": 1, "player": None}], "game": None}
ERROR = {"type": "error", "code": "room_closed", "message": "Room ABC123 was closed."}

EVERY_KIND = [
    RoomSnapshot(SNAPSHOT, '{"code":"ABC123"}'),
    RoomSnapshot(SNAPSHOT),
    RoomMove(8, "playing", '{"type":"move","peg":"b3"}'),
    RoomSpectators(9, 300),
    RoomNotice("timeout", 2),
    RoomOffer("draw", 1, "offer"),
    RoomChat({"id": 4, "chat": "players", "text": "gg"}, 3),
    RoomChat({"id": 5, "chat": "spectators", "text": "hi"}),
    RoomBlocks(),
    RoomRefuse(4404),
    RoomRefuse(4410, snapshot=SNAPSHOT, error=ERROR),
    LobbyChanged(),
    LobbyPaired(12, "XYZ789"),
    LobbyEnded(12, "timeout"),
    PlayerNotification('{"type":"notification","unread":1}'),
    PlayerEnd(4403, ERROR),
    AccountLine({"type": "gameFinish", "game": {"id": "g1"}}),
    AccountStreamsEnd(7),
    AccountStreamsEnd(None),
    TournamentChanged(),
    TournamentPaired("XYZ789", "5f1c"),
    HealthPing(),
]


def test_every_kind_of_message_is_covered_here():
    assert {type(message) for message in EVERY_KIND} == {kind for kind, _ in messages.KINDS.values()}


@pytest.mark.parametrize("message", EVERY_KIND, ids=lambda m: f"{m.TYPE}")
def test_a_message_comes_back_as_itself_through_msgpack(message):
    encoded = messages.encode(message)
    assert encoded["type"] == message.TYPE
    assert messages.decode(msgpack.unpackb(msgpack.packb(encoded))) == message


def test_the_wire_is_the_dicts_sent_before_or_smaller():
    """The same keys as the hand-made dicts before the messages were typed; a None field is left out."""
    assert messages.encode(RoomMove(8, "won", "{}")) == {"type": "room.move", "version": 8, "status": "won",
                                                         "text": "{}"}
    assert messages.encode(RoomRefuse(4404)) == {"type": "room.refuse", "close": 4404}
    assert messages.encode(RoomChat({"id": 1}, None)) == {"type": "room.chat", "message": {"id": 1}}
    assert messages.encode(LobbyPaired(3, "ABC")) == {"type": "lobby.paired", "seek": 3, "code": "ABC"}
    assert messages.encode(LobbyChanged()) == {"type": "lobby.changed"}


def test_the_same_dict_is_decoded_once_for_every_socket_it_reaches():
    encoded = messages.encode(RoomMove(9, "playing", "{}"))
    first = messages.decode(encoded)
    assert messages.decode(encoded) is first
    assert messages.decode(dict(encoded)) == first and messages.decode(dict(encoded)) is not first


@pytest.mark.parametrize("bad", [
    {"type": "room.unknown"},
    {"no": "type"},
    {"type": "room.move", "version": 1, "status": "playing"},  # no text
])
def test_a_dict_that_is_no_message_is_refused(bad):
    with pytest.raises(messages.UnknownMessage):
        messages.decode(bad)


def test_a_second_kind_of_a_type_already_taken_is_refused():
    @dataclass(frozen=True, slots=True)
    class Clash(messages.Message):
        TYPE: ClassVar[str] = RoomMove.TYPE

    with pytest.raises(ValueError, match="two message kinds"):
        messages.kind(Clash)
    assert messages.KINDS[RoomMove.TYPE][0] is RoomMove
