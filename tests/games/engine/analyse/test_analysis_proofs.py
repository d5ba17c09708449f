"""The analysis never misses a forced win within 9 plies and never claims one that is not there.

The positions and their answers come from an independent brute force (``brute_force.py``, built on
the naive reference rules), never from the code under test. They are the last moves of seeded games
between two "careful" random players (they block a win they see and avoid handing one over, so the
games last and end in combinations): walking back from the winning move over the winner's turns
gives positions won in 1, 3, 5, 7 and 9 plies, until the first one without a win within 9 plies.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from dataclasses import dataclass

import pytest

from games.engine.analyse import LOSS_PLIES, WIN_PLIES, EvalKind, analyse_position
from tests.games.engine.brute_force import BruteForce
from tests.games.engine.engine_reference import RefGame, peg_name
from tests.records import DRAWN_RECORD

# The sample of proved positions and the brute force's memo, computed once a process: one worker.
pytestmark = pytest.mark.xdist_group("analysis_proofs")

SEED = 20261130
GAMES = 50
HORIZON = 9
"""The issue's promise: every forced win within this many plies is found."""
BUDGET = 20_000
"""Optional proof nodes per position: small, to keep the suite fast (the promise holds without any)."""


@dataclass(frozen=True)
class Sample:
    wins: list[tuple[str, int]]
    """(record, the shortest forced win of the side to move in plies)."""
    no_wins: list[str]
    """Records after which the side to move has no forced win within HORIZON plies."""


def careful_move(brute: BruteForce, mover: int, other: int, rng: random.Random) -> int:
    """Take a win half the time; else block a playable win of the other side; else avoid giving one."""
    moves = brute.moves(mover, other)
    wins = [cell for cell in moves if brute.completes(mover, cell)]
    if wins and rng.random() < 0.5:
        return wins[0]
    blocks = [cell for cell in moves if brute.completes(other, cell)]
    if blocks:
        return rng.choice(blocks)
    safe = [
        cell
        for cell in moves
        if not any(brute.completes(other, reply) for reply in brute.moves(other, mover | 1 << cell))
    ]
    return rng.choice(safe or moves)


def careful_game(brute: BruteForce, rng: random.Random) -> list[str]:
    """The moves of one game, ending with a winning move (or a full board)."""
    moves: list[str] = []
    mover = other = 0
    while brute.moves(mover, other):
        cell = careful_move(brute, mover, other, rng)
        moves.append(brute.peg_of(cell))
        if brute.completes(mover, cell):
            break
        mover, other = other, mover | 1 << cell
    return moves


@functools.cache
def shared_brute_force() -> BruteForce:
    """One brute force for the whole module: its memo makes the checks after the sampling cheap."""
    return BruteForce()


@functools.cache
def sample() -> Sample:
    rng = random.Random(SEED)
    brute = shared_brute_force()
    wins: list[tuple[str, int]] = []
    no_wins: list[str] = []
    for _ in range(GAMES):
        moves = careful_game(brute, rng)
        if len(moves) == 64:
            continue  # a draw: no winner to walk back from
        for ply in range(len(moves) - 1, -1, -2):
            record = " ".join(moves[:ply])
            plies = brute.shortest_win(*brute.board(record), HORIZON)
            if plies is None:
                no_wins.append(record)
                break
            wins.append((record, plies))
    return Sample(wins, no_wins)


def test_the_sample_is_large_and_covers_every_length() -> None:
    counts = Counter(plies for _, plies in sample().wins)
    assert sum(counts.values()) >= 200
    assert set(counts) == {1, 3, 5, 7, 9}
    assert min(counts.values()) >= 5
    assert len(sample().no_wins) >= 30


def test_every_forced_win_within_nine_plies_is_found_with_its_length_and_a_winning_move() -> None:
    brute = shared_brute_force()
    for record, plies in sample().wins:
        evaluation = analyse_position(record, node_budget=BUDGET, time_budget_s=None)
        assert evaluation.kind is EvalKind.FORCED_WIN, record
        assert evaluation.plies == plies, record
        assert evaluation.move is not None
        mover, other = brute.board(record)
        cell = next(cell for cell in brute.moves(mover, other) if brute.peg_of(cell) == evaluation.move.value)
        # The move really wins: whatever the replies, the mover completes a line within ``plies`` plies.
        assert brute.wins_after(mover, other, cell, plies), (record, evaluation.move)


def test_no_short_forced_win_is_claimed_where_there_is_none() -> None:
    brute = shared_brute_force()
    assert WIN_PLIES >= HORIZON
    for record in sample().no_wins:
        evaluation = analyse_position(record, node_budget=BUDGET, time_budget_s=None)
        if evaluation.kind is EvalKind.FORCED_WIN:
            # A longer win may be claimed (proved by solving the ending; checked against the brute force
            # on small endings in test_analysis_marks.py), never a short one.
            assert evaluation.plies is not None and evaluation.plies > HORIZON, record
        if evaluation.kind is EvalKind.FORCED_LOSS and evaluation.plies is not None and evaluation.plies <= LOSS_PLIES:
            assert brute.loses_within(*brute.board(record), evaluation.plies), record


ENDING_EMPTIES = 14


def drawn_board_replays(count: int, rng: random.Random) -> list[list[str]]:
    """Games that fill the board exactly as ``DRAWN_RECORD`` does, in other gravity-respecting orders
    (Red and Yellow each dropping on the cells that end up theirs): endings rich in draws."""
    final = RefGame.from_record(DRAWN_RECORD)
    games: list[list[str]] = []
    while len(games) < count:
        heights = [[0] * 4 for _ in range(4)]
        moves: list[str] = []
        for ply in range(64):
            colour = "red" if ply % 2 == 0 else "yellow"
            options = [
                (column, row)
                for column in range(4)
                for row in range(4)
                if heights[column][row] < 4 and final.grid[column][row][heights[column][row]] == colour
            ]
            if not options:
                break
            column, row = rng.choice(options)
            heights[column][row] += 1
            moves.append(peg_name(column, row))
        if len(moves) == 64:
            games.append(moves)
    return games


def exact_value(brute: BruteForce, record: str) -> tuple[EvalKind, int]:
    """The brute force's exact result of a small ending: (kind, plies to the end with best play)."""
    mover, other = brute.board(record)
    empties = 64 - len(record.split())
    win = brute.shortest_win(mover, other, empties)
    if win is not None:
        return EvalKind.FORCED_WIN, win
    for plies in range(2, empties + 1, 2):
        if brute.loses_within(mover, other, plies):
            return EvalKind.FORCED_LOSS, plies
    return EvalKind.DRAW, empties


def test_small_endings_are_solved_exactly_including_draws_and_long_wins() -> None:
    rng = random.Random(SEED + 1)
    brute = BruteForce()
    records = [" ".join(moves[: 64 - ENDING_EMPTIES]) for moves in drawn_board_replays(30, rng)]
    for _ in range(60):
        moves = careful_game(brute, rng)
        if len(moves) > 64 - ENDING_EMPTIES:
            records.append(" ".join(moves[: 64 - ENDING_EMPTIES]))
    kinds = Counter()
    for record in records:
        kind, plies = exact_value(brute, record)
        kinds[kind] += 1
        evaluation = analyse_position(record, time_budget_s=None)
        assert (evaluation.kind, evaluation.plies) == (kind, plies), record
        if kind is not EvalKind.FORCED_LOSS:
            # The move shown keeps the result: a win within ``plies``, or no loss at all for a draw.
            assert evaluation.move is not None
            mover, other = brute.board(record)
            cell = next(cell for cell in brute.moves(mover, other) if brute.peg_of(cell) == evaluation.move.value)
            if kind is EvalKind.FORCED_WIN:
                assert brute.wins_after(mover, other, cell, plies), record
            else:
                assert not brute.completes(mover, cell)
                assert not brute.wins_within(other, mover | 1 << cell, ENDING_EMPTIES - 1), record
    # Long results (beyond the guaranteed horizon) and draws are both covered.
    assert kinds[EvalKind.DRAW] >= 3
    assert kinds[EvalKind.FORCED_WIN] + kinds[EvalKind.FORCED_LOSS] >= 20
