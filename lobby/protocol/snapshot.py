"""The room snapshot's JSON, as every client sees it (the room frame adds ``type`` and ``you``).

Built from the rows a caller holds (``Room``, ``Seat``, ``Game``, ``Player``: anything with their
fields, :mod:`lobby.protocol.rows`); no Django and no queries here. :mod:`lobby.rooms.selectors` reads the rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from common.iso import iso
from games.engine import Colour, Position
from lobby.protocol.rows import GameRow, PlayerRow, RoomRow, SeatRow

PLAYING = "playing"  # a game's status while it is being played


def room_json(
    *, room: RoomRow, rules: dict[str, Any], seats: Sequence[SeatRow], ratings: dict[int, dict[str, Any]],
    game: GameRow | None,
) -> dict[str, Any]:
    """The snapshot of ``room`` with its house ``rules``, its ``seats`` (with their players), each seat's
    shown rating by seat number (``ratings``), and its current ``game`` (None before the first)."""
    return {
        "version": room.version,
        "code": room.code,
        "host": str(room.host_id),
        "rules": rules,
        "seats": [{**seat_json(seat, game), "rating": ratings.get(seat.number)} for seat in seats],
        "spectators": room.spectators,
        "game": None if game is None else game_json(game),
        "closed_at": iso(room.closed_at),
    }


def player_json(player: PlayerRow | None) -> dict[str, Any] | None:
    """A player as frames show one: id, name, and ``title`` only for a titled player (a bot account)."""
    if player is None:
        return None
    title = getattr(player, "title", None)
    return {"id": str(player.id), "name": player.name, **({"title": title} if title is not None else {})}


def seat_json(seat: SeatRow, game: GameRow | None) -> dict[str, Any]:
    """A seat as the room shows it (without its rating). Presence is read from the row."""
    connected = seat.is_connected
    countdown = None
    if game is not None and game.to_move_seat == seat.number and not connected and not seat.away:
        countdown = iso(game.due_at)  # when the CPU stands in (the earlier of grace and turn timer)
    return {
        "seat": seat.number,
        "player": player_json(seat.player),
        "cpu": seat.cpu,
        "connected": connected,
        "away": seat.away,
        "away_at": countdown,
        "wants_again": seat.wants_again,
    }


def threats_json(game: GameRow, position: Position) -> dict[str, list[dict[str, Any]]] | None:
    """The threats hint: shown in games with a CPU seat while they are played (None otherwise)."""
    if not (game.red_cpu or game.yellow_cpu) or game.status != PLAYING:
        return None
    return {
        colour.value: [
            {"peg": str(t.cell.peg), "level": t.cell.level, "playable": t.playable} for t in position.threats(colour)
        ]
        for colour in Colour
    }


def game_json(game: GameRow, position: Position | None = None) -> dict[str, Any]:
    """The ``game`` part of a room snapshot. ``position``: the game's position, if the caller has it."""
    moves = game.record.split()
    needs_position = (game.red_cpu or game.yellow_cpu) and game.status == PLAYING
    if position is None and needs_position:
        position = Position.from_record(game.record)
    return {
        "id": str(game.id),
        "number": game.number,
        "status": game.status,
        "reason": game.reason or None,
        "red_seat": game.red_seat,
        "to_move_seat": game.to_move_seat,
        "ply": game.ply,
        "moves": moves,
        "winner_seat": game.winner_seat,
        "line": game.line,
        "deadline": deadline_json(game),
        "days_per_move": game.days_per_move,
        "ranked": game.ranked,
        "tournament": game.tournament_id,
        "threats": threats_json(game, position) if position is not None else None,
        "offers": offers_json(game),
        "berserk": {"red": game.red_halved, "yellow": game.yellow_halved},
    }


def offers_json(game: GameRow) -> list[dict[str, Any]]:
    """The offers standing in a game being played, each ``{"kind": "draw" | "takeback", "seat": n}``
    (the seat that made it); empty once the game is over."""
    if game.status != PLAYING:
        return []
    return [{"kind": kind, "seat": seat} for kind, seat in (
        ("draw", game.draw_offer_seat), ("takeback", game.takeback_offer_seat)) if seat is not None]


def deadline_json(game: GameRow) -> str | None:
    """When the current turn runs out, while the game is played (None without a turn timer)."""
    return iso(game.deadline) if game.status == PLAYING else None
