"""Puzzles for the puzzle tests: the shipped pool's, looked up by length, with the engine's winning line."""

from __future__ import annotations

from datetime import UTC, datetime

from django.test import Client

from games.engine import Position
from games.engine.puzzle import winning_line
from puzzles.models import Puzzle, PuzzleOrigin
from puzzles.pool import read_pool
from puzzles.services import puzzle_add


def pool_puzzle(plies: int, index: int = 0) -> Puzzle:
    """The ``index``-th puzzle of this length in the shipped pool (by id, so tests are repeatable); added
    when missing (a transactional test's flush empties the table the migration filled)."""
    entry = sorted((e for e in read_pool() if e.plies == plies), key=lambda e: e.id)[index]
    return puzzle_add(record=entry.record, plies=entry.plies, origin=PuzzleOrigin.SELF_PLAY,
                      now=datetime(2026, 1, 1, tzinfo=UTC))


def solver_line(puzzle: Puzzle) -> list[str]:
    """The solver's moves of the engine's winning line."""
    line = winning_line(Position.from_record(puzzle.record), plies=puzzle.plies)
    return [peg.value for peg in line[::2]]


def losing_move(puzzle: Puzzle) -> str:
    """A legal move that does not keep the win (the engine's judgement; the engine tests check it)."""
    from games.engine.puzzle import keeps_win

    position = Position.from_record(puzzle.record)
    return next(p.value for p in position.legal_pegs() if not keeps_win(position, p, within=9))


def player_client(name: str = "Ann") -> tuple[Client, str]:
    """A device with a guest player: ``(client, player id)``."""
    client = Client()
    answer = client.post("/api/session", {"name": name}, content_type="application/json")
    assert answer.status_code == 201, answer.content
    return client, answer.json()["player"]["id"]


def move(client: Client, puzzle_id: str, moves: object) -> tuple[int, dict]:
    answer = client.post(f"/api/puzzles/{puzzle_id}/move", {"moves": moves}, content_type="application/json")
    return answer.status_code, answer.json()
