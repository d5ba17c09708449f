"""Game record files of stored games (``docs/records.md``): one game's, and a player's finished games as a
stream of records read a page at a time (never the whole list in memory)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Q

from games.models import EndReason, Game, GameStatus
from study.recordfile import record_text

_TERMINATION = {
    EndReason.LINE: "line", EndReason.FULL_BOARD: "full board", EndReason.RESIGNATION: "resign",
    EndReason.IDLE: "abandoned", EndReason.CLOSED: "abandoned",
}
STREAM_PAGE = 200
"""Games read per query while a player's records are streamed."""


def _result(game: Game) -> str:
    if game.status == GameStatus.DRAWN:
        return "1/2-1/2"
    if game.status in (GameStatus.WON, GameStatus.RESIGNED) and game.winner_seat is not None:
        return "1-0" if game.colour_of_seat(game.winner_seat) == "red" else "0-1"
    return "*"


def _name(game: Game, colour: str) -> str:
    player = game.red_player if colour == "red" else game.yellow_player
    if player is not None:
        return player.name
    return f"CPU level {game.cpu_level}" if (game.red_cpu if colour == "red" else game.yellow_cpu) else "?"


def record_headers(game: Game, *, base_url: str) -> dict[str, str]:
    """The tags of ``game``'s record; ``base_url`` (``https://host``) makes its links absolute."""
    headers = {"Red": _name(game, "red"), "Yellow": _name(game, "yellow")}
    stakes: dict[str, Any] = game.stakes or {}
    for colour, tag in (("red", "RedRating"), ("yellow", "YellowRating")):
        rating = (stakes.get(str(game.seat_of_colour(colour))) or {}).get("rating")
        if isinstance(rating, int | float):
            headers[tag] = str(round(rating))
    headers["Date"] = game.started_at.strftime("%Y.%m.%d")
    headers["Result"] = _result(game)
    termination = _TERMINATION.get(EndReason(game.reason)) if game.reason else None
    if termination is not None:
        headers["Termination"] = termination
    headers["TimeControl"] = "-" if game.turn_seconds is None else f"{game.turn_seconds}s"
    headers["Ranked"] = "yes" if game.ranked else "no"
    headers["Game"] = f"{base_url}/games/{game.pk}"
    if game.tournament_id is not None:
        headers["Arena"] = f"{base_url}/tournaments/{game.tournament_id}"
    return headers


def game_record_file(game: Game, *, base_url: str) -> str:
    """``GET /api/games/{id}/record``: the game's record file."""
    return record_text(record_headers(game, base_url=base_url), game.record.split(), _result(game))


def _finished_games(player_id: str, since: datetime | None, until: datetime | None) -> Any:
    games = (Game.objects.filter(Q(red_player_id=player_id) | Q(yellow_player_id=player_id))
             .exclude(status=GameStatus.PLAYING).select_related("red_player", "yellow_player"))
    if since is not None:
        games = games.filter(finished_at__gte=since)
    if until is not None:
        games = games.filter(finished_at__lt=until)
    return games.order_by("-finished_at", "-id")


def records_page(player_id: str, *, since: datetime | None, until: datetime | None, limit: int,
                 after: tuple[datetime, str] | None, base_url: str) -> tuple[list[str], tuple[datetime, str] | None]:
    """Up to ``limit`` of the player's finished games' records, newest first, after the cursor ``after``
    (the last game's finish and id); returns them and the next cursor (None: no more)."""
    games = _finished_games(player_id, since, until)
    if after is not None:
        finished, game_id = after
        games = games.filter(Q(finished_at__lt=finished) | Q(finished_at=finished, id__lt=game_id))
    page = list(games[:limit])
    records = [game_record_file(game, base_url=base_url) for game in page]
    last = page[-1] if len(page) == limit else None
    return records, None if last is None or last.finished_at is None else (last.finished_at, str(last.pk))
