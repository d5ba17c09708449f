"""A room frame encoded once for the whole room, each connection's ``you`` added to that text, is the
frame each connection would have been sent encoded on its own."""

from __future__ import annotations

import json

import pytest

from lobby.protocol.room import room_body_text, room_frame, room_frame_text

SNAPSHOT = {
    "code": "ABC123", "version": 7, "status": "open",
    "seats": [
        {"seat": 1, "player": {"id": "p-ann", "name": "Ann \u00e9\"quoted\""}, "connected": True},
        {"seat": 2, "player": None, "connected": False},
    ],
    "game": {"id": "g1", "moves": ["a1", "b2"], "ply": 2, "status": "playing"},
    "spectators": 3,
}


@pytest.mark.parametrize("player_id", ["p-ann", "p-watcher", None], ids=["seated", "spectator", "anonymous"])
def test_the_text_made_from_the_shared_body_is_the_connections_own_frame(player_id):
    text = room_frame_text(room_body_text(SNAPSHOT), SNAPSHOT, player_id=player_id)
    assert text == json.dumps(room_frame(SNAPSHOT, player_id=player_id), separators=(",", ":"))


def test_each_connection_is_told_its_own_seat():
    body = room_body_text(SNAPSHOT)
    you = [json.loads(room_frame_text(body, SNAPSHOT, player_id=p))["you"] for p in ("p-ann", None)]
    assert you == [{"player": "p-ann", "seat": 1}, {"player": None, "seat": None}]
