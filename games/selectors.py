"""Reads of games: the position a game has reached, and a game's full record."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from games.engine import Position
from games.models import Game, Move


def iso(moment: datetime | None) -> str | None:
    """An instant as ISO-8601 UTC with milliseconds and a ``Z``, as every frame and answer writes it."""
    if moment is None:
        return None
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def game_pegs(game: Game) -> list[str]:
    return list(Move.objects.filter(game=game).order_by("ply").values_list("peg", flat=True))


def game_position(game: Game) -> Position:
    """The position after the game's stored moves (they were validated when played)."""
    return Position.from_record(" ".join(game_pegs(game)))


def game_record(game_id: str) -> dict[str, Any] | None:
    """A game's record for ``GET /api/games/{id}``; None for an unknown id."""
    game = Game.objects.filter(pk=game_id).select_related("room", "red_player", "yellow_player").first()
    if game is None:
        return None
    players = {}
    for colour, player, cpu in (
        ("red", game.red_player, game.red_cpu),
        ("yellow", game.yellow_player, game.yellow_cpu),
    ):
        players[colour] = {
            "seat": game.seat_of_colour(colour),
            "player": None if player is None else {"id": str(player.id), "name": player.name},
            "cpu": cpu,
        }
    winner = None if game.winner_seat is None else game.colour_of_seat(game.winner_seat)
    return {
        "id": str(game.id),
        "room": game.room.code,
        "number": game.number,
        "status": game.status,
        "reason": game.reason or None,
        "ranked": game.ranked,
        "cpu_level": game.cpu_level,
        "turn_seconds": game.turn_seconds,
        "players": players,
        "winner": winner,
        "line": game.line,
        "started_at": iso(game.started_at),
        "finished_at": iso(game.finished_at),
        "moves": [
            {
                "ply": move.ply,
                "peg": move.peg,
                "colour": "red" if move.ply % 2 == 0 else "yellow",
                "seat": move.seat,
                "at": iso(move.played_at),
                "cpu": move.cpu,
                "cpu_reason": move.cpu_reason or None,
            }
            for move in Move.objects.filter(game=game).order_by("ply")
        ],
    }
