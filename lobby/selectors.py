"""Reads: the room snapshot every client sees (the protocol adds ``type`` and ``you``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from common.iso import iso
from games.engine import Colour
from games.models import Game, GameStatus
from games.selectors import game_position
from lobby import scheduling
from lobby.models import Connection, Room, Seat
from lobby.rules import HouseRules
from players.models import Player
from ratings import glicko2
from ratings.selectors import CHANGE_DECIMALS, rating_json, ratings_of


def player_json(player: Player | None) -> dict[str, Any] | None:
    return None if player is None else {"id": str(player.id), "name": player.name}


def room_snapshot(code: str, *, now: datetime | None = None, include_closed: bool = False) -> dict[str, Any] | None:
    """The room as everyone sees it, or None for an unknown room (and a closed one unless ``include_closed``:
    its last snapshot, sent to the sockets a closing room shuts)."""
    rooms = Room.objects.filter(code=code)
    room = (rooms if include_closed else rooms.filter(closed_at=None)).first()
    if room is None:
        return None
    now = now or timezone.now()
    seats = list(Seat.objects.filter(room=room).select_related("player").order_by("number"))
    live = scheduling.live_players(room, now=now)
    seated = {seat.player_id for seat in seats if seat.player_id is not None}
    game = scheduling.current_game(room)
    ratings = seat_ratings(room=room, seats=seats, game=game, now=now)
    return {
        "version": room.version,
        "code": room.code,
        "host": str(room.host_id),
        "rules": HouseRules.of(room).as_dict(),
        "seats": [{**_seat_json(seat, game, live), "rating": ratings.get(seat.number)} for seat in seats],
        "spectators": _spectator_count(room, seated),
        "game": None if game is None else _game_json(game),
        "closed_at": iso(room.closed_at),
    }


def seat_ratings(*, room: Room, seats: list[Seat], game: Game | None, now: datetime) -> dict[int, dict[str, Any]]:
    """Each person's rating per seat number, with what a win, a draw and a loss would change it by.

    Shown while the room's games count: in a ranked room between games, and during a ranked game.
    Seats without a person are left out (their ``rating`` is null). The changes are null while the
    other seat holds no person (no rated game can be played then).
    """
    counts = game.ranked if (game is not None and game.status == GameStatus.PLAYING) else room.ranked
    people = {seat.number: seat.player_id for seat in seats if seat.player_id is not None}
    if not counts or not people:
        return {}
    ratings = ratings_of(people.values(), now=now)
    shown: dict[int, dict[str, Any]] = {}
    for number, player_id in people.items():
        mine = ratings[player_id]
        other_id = people.get(3 - number)
        entry = rating_json(mine)
        if other_id is None or other_id == player_id:
            entry.update(if_win=None, if_draw=None, if_loss=None)
        else:
            expected = glicko2.expected_changes(mine, ratings[other_id])
            entry.update(
                if_win=round(expected.win, CHANGE_DECIMALS),
                if_draw=round(expected.draw, CHANGE_DECIMALS),
                if_loss=round(expected.loss, CHANGE_DECIMALS),
            )
        shown[number] = entry
    return shown


def _seat_json(seat: Seat, game: Game | None, live: set[object]) -> dict[str, Any]:
    connected = seat.cpu or seat.player_id in live
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


def _spectator_count(room: Room, seated: set[object]) -> int:
    """People watching: each unseated player once (however many tabs), each anonymous connection once."""
    unseated = Connection.objects.filter(room=room).exclude(player_id__in=seated)
    watchers = list(unseated.values_list("player_id", flat=True))
    return len({p for p in watchers if p is not None}) + watchers.count(None)


def _game_json(game: Game) -> dict[str, Any]:
    position = game_position(game)
    with_cpu = game.red_cpu or game.yellow_cpu
    threats = None
    if with_cpu and game.status == GameStatus.PLAYING:
        threats = {
            colour.value: [
                {"peg": str(t.cell.peg), "level": t.cell.level, "playable": t.playable}
                for t in position.threats(colour)
            ]
            for colour in Colour
        }
    return {
        "id": str(game.id),
        "number": game.number,
        "status": game.status,
        "reason": game.reason or None,
        "red_seat": game.red_seat,
        "to_move_seat": game.to_move_seat,
        "ply": game.ply,
        "moves": [str(peg) for peg in position.moves],
        "winner_seat": game.winner_seat,
        "line": game.line,
        "deadline": iso(game.deadline) if game.status == GameStatus.PLAYING else None,
        "ranked": game.ranked,
        "threats": threats,
    }


def player_rooms(player: Player, *, limit: int = 5) -> list[dict[str, Any]]:
    """The open rooms where ``player`` has a seat, most recently active first ("continue your game")."""
    seats = (
        Seat.objects.filter(player=player, room__closed_at=None)
        .select_related("room")
        .order_by("-room__last_activity_at")[:limit]
    )
    rooms = []
    for seat in seats:
        game = scheduling.current_game(seat.room)
        rooms.append(
            {
                "code": seat.room.code,
                "seat": seat.number,
                "playing": game is not None and game.status == GameStatus.PLAYING,
            }
        )
    return rooms
