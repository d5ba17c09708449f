"""Reads of puzzles: one puzzle as the API shows it, the next puzzle for a player, the puzzles made from a
game, and a player's puzzle rating.

Nothing here ever shows a solution: a puzzle is its position, its length and its rating.
"""

from __future__ import annotations

import random
import uuid
from datetime import datetime
from typing import Any

from django.db.models import F
from django.db.models.functions import Abs

from games.engine.values import Colour
from players.models import Player
from puzzles.models import Puzzle, PuzzleAttempt, PuzzleRating, PuzzleSeen, PuzzleSource
from puzzles.pool import themes_of
from ratings import glicko2
from ratings.selectors import idle_days, rating_json

NEXT_WINDOWS = (100.0, 200.0, 400.0, 800.0, None)
"""How far from the player's rating the next puzzle is looked for, widening until one is found."""

NEXT_CHOICES = 10
"""The next puzzle is picked at random among this many unseen puzzles nearest the player's rating."""


def puzzle_get(puzzle_id: str) -> Puzzle | None:
    """The puzzle with this id, or None (a malformed id too)."""
    if not isinstance(puzzle_id, str) or len(puzzle_id) > 12:
        return None
    return Puzzle.objects.filter(pk=puzzle_id).first()


def puzzle_json(puzzle: Puzzle, *, attempt: PuzzleAttempt | None = None) -> dict[str, Any]:
    """A puzzle as the API shows it: ``{"id", "record", "to_move", "plies", "rating", "themes", "attempt"}``.

    ``attempt`` is the asking player's rated attempt, if any (``"solved"`` / ``"failed"``), else null.
    """
    to_move = Colour.YELLOW if len(puzzle.record.split()) & 1 else Colour.RED
    return {
        "id": puzzle.id,
        "record": puzzle.record,
        "to_move": to_move.value,
        "plies": puzzle.plies,
        "rating": round(puzzle.rating),
        "themes": themes_of(puzzle.plies),
        "attempt": None if attempt is None else ("solved" if attempt.solved else "failed"),
    }


def attempt_of(player: Player | None, puzzle: Puzzle) -> PuzzleAttempt | None:
    """``player``'s rated attempt at ``puzzle``, if there is one."""
    if player is None:
        return None
    return PuzzleAttempt.objects.filter(player=player, puzzle=puzzle).first()


def puzzle_rating_now(row: PuzzleRating | None, *, now: datetime) -> glicko2.Rating:
    """A player's puzzle rating at ``now``: defaults without a row, else its RD grown for idle days."""
    if row is None:
        return glicko2.Rating()
    return glicko2.decay_rd(row.as_glicko(), days=idle_days(row.last_rated_at, now=now))


def player_puzzle_rating(player: Player | None, *, now: datetime) -> glicko2.Rating:
    row = None if player is None else PuzzleRating.objects.filter(player=player).first()
    return puzzle_rating_now(row, now=now)


def player_puzzles_part(player: Player, *, now: datetime) -> dict[str, Any]:
    """The puzzle part of a player's page: ``{"rating": {...}, "solved", "failed"}`` (hooked into the games'
    player page at start-up)."""
    row = PuzzleRating.objects.filter(player=player).first()
    return {
        "rating": rating_json(puzzle_rating_now(row, now=now)),
        "solved": row.solved if row else 0,
        "failed": row.failed if row else 0,
    }


def puzzle_next(*, player: Player | None, plies: int | None, now: datetime, rng: random.Random) -> Puzzle | None:
    """A puzzle near the player's puzzle rating that they have neither attempted nor seen solved (of
    ``plies`` if given).

    The window around the rating widens (:data:`NEXT_WINDOWS`) until it holds an unseen puzzle; one of
    the :data:`NEXT_CHOICES` nearest is picked at random. When the player has attempted every puzzle
    (of that theme), one they have seen comes back. None only when there is no puzzle at all.
    """
    target = player_puzzle_rating(player, now=now).rating
    pool = Puzzle.objects.all() if plies is None else Puzzle.objects.filter(plies=plies)
    unseen = pool if player is None else pool.exclude(
        id__in=PuzzleAttempt.objects.filter(player=player).values("puzzle_id")).exclude(
        id__in=PuzzleSeen.objects.filter(player=player).values("puzzle_id"))
    for candidates in (unseen, pool):
        for window in NEXT_WINDOWS:
            near = candidates if window is None else candidates.filter(
                rating__gte=target - window, rating__lte=target + window)
            nearest = list(near.annotate(distance=Abs(F("rating") - target)).order_by("distance", "id")[:NEXT_CHOICES])
            if nearest:
                return rng.choice(nearest)
    return None


def puzzles_of_game(game_id: str) -> list[dict[str, Any]]:
    """The puzzles made from a game's missed wins: ``[{"ply", "id", "plies"}]`` in game order."""
    try:
        uuid.UUID(str(game_id))
    except ValueError:
        return []
    sources = PuzzleSource.objects.filter(game_id=game_id).select_related("puzzle").order_by("ply")
    return [{"ply": source.ply, "id": source.puzzle_id, "plies": source.puzzle.plies} for source in sources]
