"""Test kit for rooms: players with real sessions, websocket clients on the real ASGI application."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore
from django.utils import timezone

from config.asgi import application
from live.offload import offload
from lobby.protocol.room import apply_move, apply_spectators
from lobby.rooms.services import room_create
from players.identity import session_attach
from players.models import Player
from players.services import player_create

ORIGIN = (b"origin", b"http://localhost")
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


class Client:
    """A websocket client in a room: sends frames, and waits for the frames it wants.

    It keeps the room as the page does: the last ``room`` frame with every ``move`` frame applied since
    (``self.room``), and each state it went through (``self.rooms``).
    """

    def __init__(self, code: str, session_key: str | None, *, origin: bytes = b"http://localhost") -> None:
        headers = [(b"origin", origin), (b"host", b"localhost")]
        if session_key is not None:
            headers.append((b"cookie", f"sessionid={session_key}".encode()))
        self.comm = WebsocketCommunicator(application, f"/ws/rooms/{code}/", headers=headers)
        self.session_key = session_key
        self.room: dict[str, Any] | None = None
        self.rooms: list[dict[str, Any]] = []
        self.log: list[dict[str, Any]] = []

    async def connect(self) -> Client:
        connected, _ = await self.comm.connect(timeout=5)
        assert connected
        await self.wait_room(lambda room: True)
        return self

    async def send(self, **frame: Any) -> None:
        await self.comm.send_to(text_data=json.dumps(frame))

    async def send_raw(self, text: str) -> None:
        await self.comm.send_to(text_data=text)

    async def next_frame(self, timeout: float = 10) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(await self.comm.receive_from(timeout=timeout))
        self.log.append(frame)
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
        return frame

    async def wait(self, kind: str, predicate: Any = None, timeout: float = 10) -> dict[str, Any]:
        """The next frame of ``kind`` that satisfies ``predicate`` (frames before it are kept in log)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            frame = await self.next_frame(timeout=max(0.01, end - loop.time()))
            if frame["type"] == kind and (predicate is None or predicate(frame)):
                return frame

    async def wait_room(self, predicate: Any, timeout: float = 10) -> dict[str, Any]:
        """The room once it satisfies ``predicate`` (after a room, a move or a spectators frame)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while self.room is None or not predicate(self.room):
            while (await self.next_frame(timeout=max(0.01, end - loop.time())))["type"] not in ROOM_CHANGES:
                pass
        return self.room

    async def error(self, timeout: float = 10) -> dict[str, Any]:
        return await self.wait("error", timeout=timeout)

    async def drop(self, peg: str) -> None:
        assert self.room is not None and self.room["game"] is not None
        await self.send(type="drop", peg=peg, ply=self.room["game"]["ply"])

    async def close(self) -> None:
        # The consumer closes its connection in the database as it leaves: give it time on a busy
        # machine (the communicator's default second cancels it half-way).
        await self.comm.disconnect(timeout=10)


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
