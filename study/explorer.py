"""The opening explorer: which moves the site's players play from a position, how often, how they end.

Each finished game between two players (people or bots; not a CPU seat's, not an abandoned one) is learned
once, in the transaction of its post-game work (:func:`explorer_learn_settling`, on ``POST_GAME``:
``games.postgame``, which a process killed in the middle leaves for another), or by ``manage.py
explorer_learn`` for games finished before the explorer learned them: its first
:data:`~study.models.EXPLORER_PLIES` plies add one game to each position reached and to each move played,
under the position's canonical key (the 8 symmetries, ``games/engine/symmetry.py``). The row of
:class:`~study.models.ExplorerLearned` is inserted in the same transaction as the counts, and only a
transaction whose insert took the row counts: so a game is learned exactly once, on any number of processes.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from games.endings import GameSettling
from games.engine import Position
from games.models import Game, GameStatus
from ratings.selectors import ratings_of
from study.models import EXPLORER_PLIES, ExplorerLearned, ExplorerMove, ExplorerPosition
from study.orientation import Oriented

log = logging.getLogger(__name__)

RECENT_KEPT = 3
"""Game ids kept per position for ``recent``."""
_ID_CHARS = 36


def game_walk(record: str) -> list[tuple[Oriented, int | None]]:
    """Each position of the game's first plies with the stored move played from it (None for the last,
    when the game ended there or at the depth)."""
    walk: list[tuple[Oriented, int | None]] = []
    position = Position.initial()
    for peg in Position.from_record(record).moves[:EXPLORER_PLIES]:
        oriented = Oriented.of(position)
        walk.append((oriented, oriented.stored_peg(peg)))
        position = position.play(peg)
    walk.append((Oriented.of(position), None))
    return walk


def _learnable(game: Game) -> bool:
    return (game.status in (GameStatus.WON, GameStatus.RESIGNED, GameStatus.DRAWN) and game.ply > 0
            and game.red_player_id is not None and game.yellow_player_id is not None
            and not (game.red_cpu or game.yellow_cpu))


def _outcome(game: Game) -> tuple[int, int, int]:
    if game.winner_seat is None:
        return 0, 1, 0
    return (1, 0, 0) if game.colour_of_seat(game.winner_seat) == "red" else (0, 0, 1)


def _ratings(game: Game, now: datetime) -> list[float]:
    """The two players' ratings: as the game was played for (ranked), else as they are now."""
    stakes: dict[str, Any] = game.stakes or {}
    found = [(stakes.get(str(seat)) or {}).get("rating") for seat in (1, 2)]
    numbers = [float(value) for value in found if isinstance(value, int | float)]
    if len(numbers) == 2:
        return numbers
    rated = ratings_of([game.red_player_id, game.yellow_player_id], now=now)
    return [rating.rating for rating in rated.values()]


def _upsert_positions(walk: list[tuple[Oriented, int | None]], *, ranked: bool, game_id: str) -> None:
    table = connection.ops.quote_name(ExplorerPosition._meta.db_table)
    keys = sorted({oriented.key for oriented, _ in walk})  # sorted: concurrent upserts lock rows in one order
    rows = ", ".join(["(%s, %s, 1, %s)"] * len(keys))
    params: list[str | bool | int | float] = []
    for key in keys:
        params += [key, ranked, game_id]
    limit = RECENT_KEPT * (_ID_CHARS + 1) - 1
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (key, ranked, games, recent) VALUES {rows} "
            f"ON CONFLICT (key, ranked) DO UPDATE SET games = {table}.games + 1, "
            f"recent = substr(excluded.recent || ' ' || {table}.recent, 1, {limit})", params)


def _upsert_moves(walk: list[tuple[Oriented, int | None]], *, ranked: bool, outcome: tuple[int, int, int],
                  bot: bool, ratings: list[float]) -> None:
    table = connection.ops.quote_name(ExplorerMove._meta.db_table)
    moves = sorted({(oriented.key, peg) for oriented, peg in walk if peg is not None})
    if not moves:
        return
    rows = ", ".join(["(%s, %s, %s, 1, %s, %s, %s, %s, %s, %s)"] * len(moves))
    params: list[str | bool | int | float] = []
    for key, peg in moves:
        params += [key, ranked, peg, *outcome, int(bot), sum(ratings), len(ratings)]
    columns = ("games", "red_wins", "draws", "yellow_wins", "bot_games", "rating_sum", "rated")
    updates = ", ".join(f"{c} = {table}.{c} + excluded.{c}" for c in columns)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (key, ranked, peg, {', '.join(columns)}) VALUES {rows} "
            f"ON CONFLICT (key, ranked, peg) DO UPDATE SET {updates}", params)


def explorer_learn(game: Game, *, now: datetime) -> bool:
    """Count ``game`` in the explorer unless it was counted already or is not one it learns; True when
    this call counted it. Three statements, in one transaction of its own."""
    if not _learnable(game):
        return False
    walk = game_walk(game.record)
    players = (game.red_player, game.yellow_player)
    bot = any(player is not None and player.is_bot for player in players)
    ratings = _ratings(game, now)
    try:
        with transaction.atomic():
            _, created = ExplorerLearned.objects.get_or_create(game_id=game.pk, defaults={"learned_at": now})
            if not created:
                return False
            _upsert_positions(walk, ranked=game.ranked, game_id=str(game.pk))
            _upsert_moves(walk, ranked=game.ranked, outcome=_outcome(game), bot=bot, ratings=ratings)
    except IntegrityError:  # another process inserted the learned row between our look and our insert
        return False
    return True


def explorer_learn_settling(settling: GameSettling) -> None:
    """``POST_GAME``'s handler: learn the game that ended, in the transaction of its post-game work."""
    explorer_learn(settling.game, now=timezone.now())


def explorer_learn_missed(*, now: datetime, batch: int = 500) -> int:
    """Learn every finished game the explorer has not learned (``manage.py explorer_learn``); how many."""
    learned = 0
    while True:
        games = list(Game.objects.exclude(status=GameStatus.PLAYING).exclude(
            pk__in=ExplorerLearned.objects.values("game_id")).filter(
            red_player__isnull=False, yellow_player__isnull=False, red_cpu=False, yellow_cpu=False).exclude(
            status=GameStatus.ABANDONED).exclude(ply=0).select_related("red_player", "yellow_player")[:batch])
        if not games:
            return learned
        learned += sum(explorer_learn(game, now=now) for game in games)


def explorer_query(record: Position, *, ranked: bool | None) -> dict[str, Any]:
    """``GET /api/explorer``: the games that reached the position (any of its symmetric images) and the moves
    played from it, most played first, in the asked position's orientation."""
    oriented = Oriented.of(record)
    kinds = [True, False] if ranked is None else [ranked]
    positions = list(ExplorerPosition.objects.filter(key=oriented.key, ranked__in=kinds))
    totals: dict[int, dict[str, float]] = {}
    for row in ExplorerMove.objects.filter(key=oriented.key, ranked__in=kinds):
        entry = totals.setdefault(row.peg, dict.fromkeys(
            ("games", "red_wins", "draws", "yellow_wins", "bot_games", "rating_sum", "rated"), 0.0))
        for name in entry:
            entry[name] += getattr(row, name)
    moves = [{
        "peg": str(oriented.asked_peg(peg)), "games": int(t["games"]), "red_wins": int(t["red_wins"]),
        "draws": int(t["draws"]), "yellow_wins": int(t["yellow_wins"]), "bot_games": int(t["bot_games"]),
        "average_rating": round(t["rating_sum"] / t["rated"]) if t["rated"] else None,
    } for peg, t in totals.items()]
    moves.sort(key=lambda move: (-int(move["games"] or 0), str(move["peg"])))
    recent = [game for row in sorted(positions, key=lambda row: -row.games) for game in row.recent.split()]
    return {"games": sum(row.games for row in positions), "moves": moves, "recent": recent[:RECENT_KEPT],
            "depth": EXPLORER_PLIES}
