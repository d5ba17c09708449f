"""The rooms this process holds: for each room whose game is being played here, the room's row, its seats
and its current game as they stood at the room's version after its last move (made here, or made by
another process and heard from the room's group), so that the next move reads nothing and is written
in one statement guarded by that version (:func:`lobby.play.moves.game_drop`'s held path).

What is held is only ever a guess: a move made from it lands only if the room's row still has its
version, and every change of a room, its seats or its game bumps that version under the room's lock
(the due time and lease of a game, which change without it, are what a move writes anew). A room
taken to make a move is out of the store until the move is done, so two threads of a process never
move from the same copy; another process's move, a takeback, a timeout, a seat's presence changing make
the held copy stale, and the move falls back to reading the room under its lock.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from games.models import Game, GameStatus
from games.services import game_follow
from lobby.models import Room, Seat
from lobby.protocol import messages

# Rooms held per process at most (the least recently moved are let go first): about 6 KiB each.
HELD_ROOMS = 20_000


@dataclass(slots=True)
class Held:
    """A room's row, its two seats (in seat order) and its current game, at the room's version."""

    room: Room
    seats: list[Seat]
    game: Game


class HeldRooms:
    """The rooms held by this process, by code; safe to use from any thread."""

    def __init__(self, limit: int = HELD_ROOMS) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        self._rooms: OrderedDict[str, Held] = OrderedDict()

    def __len__(self) -> int:
        return len(self._rooms)

    def take(self, code: str) -> Held | None:
        """The room ``code`` as held, taken out of the store (None: not held, or taken by another thread)."""
        with self._lock:
            return self._rooms.pop(code, None)

    def put(self, held: Held) -> None:
        """Hold ``held`` (after a move that committed), unless its game is not one moved from what is held
        (over, or a correspondence game) or a newer version of the room is held already."""
        if held.game.status != GameStatus.PLAYING or held.game.days_per_move is not None:
            return
        code = held.room.code
        with self._lock:
            there = self._rooms.get(code)
            if there is not None and there.room.version >= held.room.version:
                return
            self._rooms[code] = held
            self._rooms.move_to_end(code)
            while len(self._rooms) > self.limit:
                self._rooms.popitem(last=False)

    def follow(self, code: str, move: messages.RoomMove) -> None:
        """A move of the room ``code`` heard from its group (made here or by another process): what is held
        follows it when it is the next version and a plain move (else it is let go)."""
        with self._lock:
            held = self._rooms.get(code)
            if held is None or held.room.version >= move.version:
                return
            if not _followed(held, move):
                del self._rooms[code]
                return
            held.room.version = move.version

    def forget(self, code: str, version: int) -> None:
        """The room ``code`` is at ``version`` (a snapshot heard from its group): a copy older than it is let
        go (a move from it could not land)."""
        with self._lock:
            held = self._rooms.get(code)
            if held is not None and held.room.version < version:
                del self._rooms[code]

    def clear(self) -> None:
        with self._lock:
            self._rooms.clear()


def _followed(held: Held, move: messages.RoomMove) -> bool:
    """Apply ``move`` to ``held`` if it is what the held room's next move did (it changes ``held`` only
    when it returns True)."""
    if (move.version != held.room.version + 1 or move.status != GameStatus.PLAYING or move.game is None
            or move.game != str(held.game.pk) or move.peg is None or move.seat is None or move.ply is None):
        return False
    seat = next((s for s in held.seats if s.number == move.seat), None)
    if seat is None or move.cpu != seat.cpu:
        return False  # the CPU stood in for a person (a timeout, away): that changed the seat too
    if not game_follow(held.game, peg=move.peg, seat=move.seat, ply=move.ply):
        return False
    if not seat.cpu:  # a person's move ends their away status and run of timeouts (a move frame: not away)
        seat.away, seat.timeouts_in_row = False, 0
    return True


HELD = HeldRooms()
