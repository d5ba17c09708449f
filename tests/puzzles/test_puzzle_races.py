"""Racing attempts on PostgreSQL: the same player's finished attempt at one puzzle, sent at once from several
threads (a replay, a forged copy), is rated exactly once."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from games.engine import Peg
from players.services import player_create
from puzzles.models import Puzzle, PuzzleAttempt, PuzzleRating
from puzzles.services import attempt_rate, puzzle_move
from tests.puzzles.puzzlekit import pool_puzzle, solver_line
from tests.racekit import race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

NOW = datetime(2026, 6, 1, tzinfo=UTC)


def test_racing_finished_attempts_rate_once():
    for round_ in range(4):
        player = player_create(name=f"R{round_}", now=NOW)
        puzzle = pool_puzzle(3, round_)
        rating_before = Puzzle.objects.get(pk=puzzle.pk).rating
        outcomes = race(*[
            (lambda player=player, puzzle=puzzle, solved=solved:
             attempt_rate(player=player, puzzle=puzzle, solved=solved, moves=[Peg("a1")], now=NOW))
            for solved in (True, False, True)
        ])
        assert sum(outcome is not None for outcome in outcomes) == 1, outcomes
        row = PuzzleRating.objects.get(player=player)
        assert row.solved + row.failed == 1
        attempt = PuzzleAttempt.objects.get(player=player)
        stored = Puzzle.objects.get(pk=puzzle.pk)
        assert stored.attempts == 1 and attempt.puzzle_rating_before == rating_before
        assert row.rating == attempt.rating_after and stored.rating == attempt.puzzle_rating_after


def test_two_players_racing_on_one_puzzle_both_count():
    puzzle = pool_puzzle(5)
    players = [player_create(name=f"P{i}", now=NOW) for i in range(3)]
    moves = solver_line(puzzle)
    outcomes = race(*[
        (lambda player=player: puzzle_move(puzzle_id=puzzle.id, moves=moves, player=player, now=NOW).rated)
        for player in players
    ])
    assert all(outcome is not None for outcome in outcomes)
    assert Puzzle.objects.get(pk=puzzle.pk).attempts == 3 == Puzzle.objects.get(pk=puzzle.pk).solves
