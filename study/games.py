"""Every game a player played (``GET /api/players/{id}/games``): finished games, newest first, 20 a page,
filtered by result, ranked, opponent and kind."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import F, Q, QuerySet

from common.iso import iso
from games.models import Game, GameStatus
from players.selectors import player_json
from ratings.selectors import CHANGE_DECIMALS, changes_of

PAGE_SIZE = 20
KINDS = ("party", "online", "cpu", "arena", "bot")
RESULTS = ("win", "draw", "loss")


@dataclass(frozen=True, slots=True)
class GamesFilter:
    """What ``GET /api/players/{id}/games`` narrows the list to (None: no narrowing)."""

    result: str | None = None
    ranked: bool | None = None
    opponent: str | None = None
    kind: str | None = None


_ARENA = Q(tournament__isnull=False)
_BOT = Q(red_player__bot_at__isnull=False) | Q(yellow_player__bot_at__isnull=False)
_CPU = Q(red_cpu=True) | Q(yellow_cpu=True)
_ONLINE = Q(room__made_for_two=True)
# Each kind excludes the kinds before it: an arena game against a bot is an arena game.
_KIND: dict[str, Q] = {
    "arena": _ARENA,
    "bot": ~_ARENA & _BOT,
    "cpu": ~_ARENA & ~_BOT & _CPU,
    "online": ~_ARENA & ~_BOT & ~_CPU & _ONLINE,
    "party": ~_ARENA & ~_BOT & ~_CPU & ~_ONLINE,
}


def kind_of(game: Game) -> str:
    """The game's kind, as the ``kind`` filter reads it."""
    if game.tournament_id is not None:
        return "arena"
    if any(p is not None and p.is_bot for p in (game.red_player, game.yellow_player)):
        return "bot"
    if game.red_cpu or game.yellow_cpu:
        return "cpu"
    return "online" if game.room.made_for_two else "party"


def _won_by(player_id: str) -> Q:
    as_red = Q(red_player_id=player_id, winner_seat=F("red_seat"))
    as_yellow = Q(yellow_player_id=player_id, winner_seat__isnull=False) & ~Q(winner_seat=F("red_seat"))
    return as_red | as_yellow


def _games(player_id: str, narrow: GamesFilter) -> QuerySet[Game]:
    games = (Game.objects.filter(Q(red_player_id=player_id) | Q(yellow_player_id=player_id))
             .exclude(status=GameStatus.PLAYING))
    if narrow.result == "draw":
        games = games.filter(status=GameStatus.DRAWN)
    elif narrow.result == "win":
        games = games.filter(_won_by(player_id))
    elif narrow.result == "loss":
        games = games.filter(winner_seat__isnull=False).exclude(_won_by(player_id))
    if narrow.ranked is not None:
        games = games.filter(ranked=narrow.ranked)
    if narrow.opponent is not None:
        games = games.filter(Q(red_player_id=player_id, yellow_player_id=narrow.opponent)
                             | Q(yellow_player_id=player_id, red_player_id=narrow.opponent))
    if narrow.kind is not None:
        games = games.filter(_KIND[narrow.kind])
    return games


def _side(game: Game, colour: str) -> dict[str, Any]:
    player = game.red_player if colour == "red" else game.yellow_player
    return {"player": player_json(player), "cpu": game.red_cpu if colour == "red" else game.yellow_cpu}


def _result(game: Game, colour: str) -> str | None:
    if game.status == GameStatus.DRAWN:
        return "draw"
    if game.winner_seat is None:
        return None
    return "win" if game.colour_of_seat(game.winner_seat) == colour else "loss"


def player_games(player_id: str, *, page: int, narrow: GamesFilter) -> dict[str, Any]:
    """One page (1-based) of the player's finished games, newest first, and how many match in all."""
    games = _games(player_id, narrow)
    count = games.count()
    start = (page - 1) * PAGE_SIZE
    rows = list(games.select_related("room", "red_player", "yellow_player")
                .order_by("-finished_at", "-id")[start:start + PAGE_SIZE])
    changes = changes_of(player_id, [game.pk for game in rows])  # type: ignore[arg-type]  # a UUID's text
    listed = []
    for game in rows:
        colour = "red" if str(game.red_player_id) == player_id else "yellow"
        change = changes.get(game.pk)
        listed.append({
            "game": str(game.pk), "room": game.room.code, "kind": kind_of(game), "colour": colour,
            "red": _side(game, "red"), "yellow": _side(game, "yellow"), "result": _result(game, colour),
            "reason": game.reason or None, "plies": game.ply, "ranked": game.ranked,
            "rating_change": None if change is None else round(change.change, CHANGE_DECIMALS),
            "finished_at": iso(game.finished_at),
        })
    return {"page": page, "pages": max(1, -(-count // PAGE_SIZE)), "count": count, "games": listed}
