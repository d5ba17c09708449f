"""The shipped pool (puzzles/data/pool.jsonl), checked by the independent brute force of the engine's tests:
the side to move wins in exactly the stored plies and no faster; one puzzle per board up to symmetry."""

from __future__ import annotations

from games.engine import Position
from puzzles.pool import read_pool
from tests.games.engine.brute_force import BruteForce

ENTRIES = list(read_pool())


def test_the_pool_holds_a_few_hundred_puzzles_of_every_length():
    assert len(ENTRIES) >= 300
    for plies in (3, 5, 7, 9):
        assert sum(entry.plies == plies for entry in ENTRIES) >= 50


def test_every_puzzle_is_won_in_exactly_its_plies_and_no_faster():
    wrong = []
    for entry in ENTRIES:
        brute = BruteForce()
        mover, other = brute.board(entry.record)
        if brute.shortest_win(mover, other, entry.plies) != entry.plies:
            wrong.append((entry.id, entry.record, entry.plies))
    assert wrong == []


def test_one_puzzle_per_board_up_to_symmetry_and_ids_follow_the_board():
    keys = [Position.from_record(entry.record).canonical_key() for entry in ENTRIES]
    assert len(set(keys)) == len(keys)
    from puzzles.pool import PoolEntry

    assert all(PoolEntry.of(entry.record, entry.plies) == entry for entry in ENTRIES)
    assert len({entry.id for entry in ENTRIES}) == len(ENTRIES)
