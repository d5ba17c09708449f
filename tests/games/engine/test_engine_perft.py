"""Perft: count the leaves of the game tree from the empty board, three independent ways."""

from __future__ import annotations

import pytest

from games.engine import Position, drop_bit, is_win_at, legal_pegs_mask
from tests.games.engine.engine_reference import RefGame
from tests.games.engine.engine_reference import perft as reference_perft

# No line can be completed before ply 7, so only full pegs prune the tree: 16 ** depth for depth <= 4,
# and at depth 5 the 16 games that put their first four beads on one peg have 15 moves, not 16.
EXPECTED = {1: 16, 2: 256, 3: 4096, 4: 65536, 5: 16**5 - 16}


def bitboard_perft(own: int, other: int, depth: int) -> int:
    """Leaves at ``depth`` below a position where ``own`` is to move (the game is not over)."""
    occupied = own | other
    room = legal_pegs_mask(occupied)
    if depth == 1:
        return room.bit_count()
    total = 0
    for peg in range(16):
        if room >> peg & 1:
            landing = drop_bit(occupied, peg)
            mine = own | landing
            if is_win_at(mine, landing.bit_length() - 1):
                continue  # a finished game has no children
            total += bitboard_perft(other, mine, depth - 1)
    return total


def position_perft(position: Position, depth: int) -> int:
    moves = position.legal_pegs()
    if depth == 1:
        return len(moves)
    return sum(position_perft(position.play(peg), depth - 1) for peg in moves)


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5])
def test_bitboard_perft(depth: int) -> None:
    assert bitboard_perft(0, 0, depth) == EXPECTED[depth]
    if depth <= 4:
        assert EXPECTED[depth] == 16**depth


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5])
def test_position_perft(depth: int) -> None:
    assert position_perft(Position.initial(), depth) == EXPECTED[depth]


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5])
def test_reference_perft_agrees(depth: int) -> None:
    assert reference_perft(RefGame(), depth) == EXPECTED[depth]


@pytest.mark.parametrize("record", ["a1 b1 a1 b1 a1 b1", "a1 a1 a1 a1 b2 b2 b2", "d4 d4 d4 c3 c3 c2"])
def test_perft_near_wins_and_full_pegs_agrees_with_reference(record: str) -> None:
    position = Position.from_record(record)
    reference = RefGame.from_record(record)
    for depth in (1, 2, 3):
        assert position_perft(position, depth) == reference_perft(reference, depth)
