"""Reads of games: the position a game has reached, a game's full record, and a player's page."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from django.db.models import Q

from common.hooks import Registry
from common.iso import iso
from common.rows import Rows
from games.engine import Position
from games.models import AnalysisStatus, Game, GameAnalysis, GameStatus, Move
from players.models import Player
from players.selectors import player_json
from players.social import follow_counts
from ratings.selectors import CHANGE_DECIMALS, changes_of, player_rating_page

RECENT_GAMES = 10


class PlayerPagePart(Protocol):
    def __call__(self, player: Player, *, now: datetime) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class PagePart:
    """One more part of a player's page from a layer above: the page's ``key``, made by ``build``."""

    key: str
    build: PlayerPagePart


PLAYER_PAGE_PARTS: Registry[PagePart] = Registry("player page parts")
"""The parts of a player's page from layers above, in the page in the order registered (the puzzles
register ``"puzzles"`` at start-up)."""


def game_get(game_id: uuid.UUID | str) -> Game | None:
    """The game with this id, read fresh (None: no such game)."""
    return Game.objects.filter(pk=game_id).first()


_GAMES = Rows(Game)


def room_latest_game(room_id: int) -> Game | None:
    """The last game started in a room (being played or finished), or None before the first.

    On every move's path: SQL written once (:mod:`common.rows`), not a queryset compiled each time.
    """
    games = _GAMES
    sql = games.statement("latest", lambda: (
        f"SELECT {games.columns('g')} FROM {games.quoted(games.table)} g WHERE g.{games.quoted('room_id')} = %s "
        f"ORDER BY g.{games.quoted('number')} DESC LIMIT 1"))
    rows = games.execute(sql, [room_id])
    return games.load(rows[0]) if rows else None


def game_pegs(game: Game) -> list[str]:
    """The pegs played so far, in order (from the game row: no query)."""
    return game.record.split()


def seat_last_move_reason(game: Game, seat: int) -> str | None:
    """Why the CPU played the last move ``seat`` made in ``game`` (``timeout``, ``away``, ``seat``); ""
    when the person played it; None when the seat made no move."""
    found = Move.objects.filter(game=game, seat=seat).order_by("-ply").values_list("cpu_reason", flat=True)[:1]
    return next(iter(found), None)


def game_position(game: Game) -> Position:
    """The position after the game's moves (from the record on its row; they were validated when played).

    Kept on the instance with the record it was replayed from (a room held by a process moves its one
    game instance move after move: each move replays nothing)."""
    kept: tuple[str, Position] | None = getattr(game, "_position", None)
    if kept is not None and kept[0] == game.record:
        return kept[1]
    position = Position.from_record(game.record)
    game._position = (game.record, position)  # type: ignore[attr-defined]  # a cache beside the fields
    return position


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
        "tournament": game.tournament_id,
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


# --- a game's analysis ----------------------------------------------------------------------------
# The marks counted in an analysis's summary, per colour.
SUMMARY_MARKS = ("best", "only_move", "slower_win", "missed_win", "blunder")


def analysis_summary(result: dict[str, Any]) -> dict[str, dict[str, int]]:
    """Per colour, how many of its moves got each mark (docs/analysis.md), and how many moves it made."""
    summary = {colour: {"moves": 0, **dict.fromkeys(SUMMARY_MARKS, 0)} for colour in ("red", "yellow")}
    for entry in result.get("plies", []):
        colour = entry.get("to_move")
        if entry.get("played") is None or colour not in summary:
            continue
        summary[colour]["moves"] += 1
        mark = entry.get("mark")
        if mark in SUMMARY_MARKS:
            summary[colour][mark] += 1
    return summary


def game_analysis_out(game: Game, row: GameAnalysis) -> dict[str, Any]:
    """``GET /api/games/{id}/analysis``: the status, and once done the per-ply entries, the key moments
    and the summary (null before)."""
    done = row.status == AnalysisStatus.DONE and isinstance(row.result, dict)
    result: dict[str, Any] = row.result if done and isinstance(row.result, dict) else {}
    return {
        "game": str(game.pk),
        "status": row.status,
        "version": row.version,
        "queued_at": iso(row.queued_at),
        "finished_at": iso(row.finished_at) if done else None,
        "plies": result.get("plies") if done else None,
        "moments": result.get("moments") if done else None,
        "summary": analysis_summary(result) if done else None,
    }


# --- a player's page -----------------------------------------------------------------------------
def _result_word(score: float | None) -> str | None:
    return {1.0: "win", 0.5: "draw", 0.0: "loss"}.get(score) if score is not None else None


def _seat_score(game: Game, colour: str) -> float | None:
    if game.status == GameStatus.DRAWN:
        return 0.5
    if game.winner_seat is None:
        return None
    return 1.0 if game.colour_of_seat(game.winner_seat) == colour else 0.0


def _recent_games(player: Player, *, limit: int) -> list[dict[str, Any]]:
    games = list(
        Game.objects.filter(Q(red_player=player) | Q(yellow_player=player))
        .exclude(status=GameStatus.PLAYING)
        .select_related("red_player", "yellow_player")
        .order_by("-finished_at")[:limit]
    )
    changes = changes_of(player.pk, [g.pk for g in games])
    recent = []
    for game in games:
        colour = "red" if game.red_player_id == player.pk else "yellow"
        opponent = game.yellow_player if colour == "red" else game.red_player
        change = changes.get(game.pk)
        recent.append(
            {
                "id": str(game.id),
                "colour": colour,
                "opponent": player_json(opponent),
                "opponent_cpu": game.yellow_cpu if colour == "red" else game.red_cpu,
                "status": game.status,
                "result": _result_word(_seat_score(game, colour)),
                "rated": change is not None,
                "rating_before": None if change is None else round(change.rating_before, CHANGE_DECIMALS),
                "rating_after": None if change is None else round(change.rating_after, CHANGE_DECIMALS),
                "rating_change": None if change is None else round(change.change, CHANGE_DECIMALS),
                "finished_at": iso(game.finished_at),
            }
        )
    return recent


def player_profile(player_id: str, *, now: datetime, recent: int = RECENT_GAMES) -> dict[str, Any] | None:
    """A player's page: rating now, followers and following counts, record, the ``recent`` last finished
    games and the rating history.

    Returns None for an unknown or malformed id.
    """
    try:
        uuid.UUID(str(player_id))
    except ValueError:
        return None
    player = Player.objects.select_related("user").filter(pk=player_id).first()
    if player is None:
        return None
    page = player_rating_page(player, now=now)
    history = page.pop("history")
    return {
        "id": str(player.id),
        "name": player.name,
        "title": player.title,
        "username": player.user.username if player.user is not None and not player.is_closed else None,
        "account": player.user_id is not None and not player.is_closed,
        **follow_counts(player),
        **page,
        "recent_games": _recent_games(player, limit=recent),
        "history": history,
        **{part.key: part.build(player, now=now) for part in PLAYER_PAGE_PARTS},
    }
