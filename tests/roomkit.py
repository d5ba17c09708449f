"""Test kit for rooms: players with real sessions, room websocket clients (``tests.socketkit``'s) on the real ASGI
application."""

from __future__ import annotations

import asyncio
from typing import Any

from django.contrib.sessions.backends.db import SessionStore
from django.utils import timezone

from live.offload import offload
from lobby.protocol.room import apply_move, apply_spectators
from lobby.rooms.services import room_create
from players.identity import session_attach
from players.models import Player
from players.services import player_create
from tests.socketkit import SocketClient

ROOM_CHANGES = ("room", "move", "spectators")  # the frames that change the room a client shows


def make_player(name: str = "Ann") -> tuple[Player, str]:
    """A player attached to a fresh saved session; returns the player and the session key."""
    player = player_create(name=name, now=timezone.now())
    session = SessionStore()
    session_attach(session, player)
    session.save()
    assert session.session_key is not None
    return player, session.session_key


def make_room(host: Player, **rules: Any) -> str:
    return room_create(host=host, rules=rules, now=timezone.now()).code


class Client(SocketClient):
    """A websocket client in a room: sends frames, and waits for the frames it wants.

    It keeps the room as the page does: the last ``room`` frame with every ``move`` frame applied since
    (``self.room``), and each state it went through (``self.rooms``).
    """

    def __init__(self, code: str, session_key: str | None, *, origin: bytes = b"http://localhost") -> None:
        super().__init__(f"/ws/rooms/{code}/", session_key, origin=origin)
        self.room: dict[str, Any] | None = None
        self.rooms: list[dict[str, Any]] = []

    async def connect(self) -> Client:
        await super().connect()
        await self.wait_room(lambda room: True)
        return self

    def kept(self, frame: dict[str, Any]) -> None:
        if frame["type"] == "room":
            assert self.room is None or frame["version"] >= self.room["version"], "snapshots arrive in order"
            self.room = frame
            self.rooms.append(frame)
        elif frame["type"] in ("move", "spectators"):
            assert self.room is not None, f"a {frame['type']} frame comes after a room frame"
            applied = (apply_move if frame["type"] == "move" else apply_spectators)(self.room, frame)
            assert applied is not None, f"{frame} does not follow version {self.room['version']}"
            self.room = applied
            self.rooms.append(applied)

    async def wait_room(self, predicate: Any, timeout: float = 10) -> dict[str, Any]:
        """The room once it satisfies ``predicate`` (after a room, a move or a spectators frame)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while self.room is None or not predicate(self.room):
            while (await self.next_frame(timeout=max(0.01, end - loop.time())))["type"] not in ROOM_CHANGES:
                pass
        return self.room

    async def drop(self, peg: str) -> None:
        assert self.room is not None and self.room["game"] is not None
        await self.send(type="drop", peg=peg, ply=self.room["game"]["ply"])


make_player_async = offload(make_player)
make_room_async = offload(make_room)


def at_ply(n: int) -> Any:
    """A snapshot predicate: a game is on and has ``n`` moves."""
    return lambda room: room["game"] is not None and room["game"]["ply"] == n


async def seated_pair(**rules: Any) -> tuple[str, Client, Client]:
    """A room with Ann hosting in seat 1 and Bob in seat 2, both connected; returns (code, ann, bob)."""
    ann, ann_key = await make_player_async("Ann")
    _, bob_key = await make_player_async("Bob")
    code = await make_room_async(ann, **rules)
    a = await Client(code, ann_key).connect()
    b = await Client(code, bob_key).connect()
    await b.send(type="sit")
    await a.wait_room(lambda r: r["seats"][1]["player"] is not None and r["seats"][1]["connected"])
    await b.wait_room(lambda r: r["you"]["seat"] == 2)
    return code, a, b
