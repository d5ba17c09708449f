"""The raw-integer layer: line geometry, drops, win checks, threat masks."""

from __future__ import annotations

import itertools

import pytest

from games.engine import bitboard as bb
from tests.games.engine.engine_reference import all_lines


def cells_of(mask: int) -> list[tuple[int, int, int]]:
    """(column, row, level) triples of a mask, the reference's cell convention."""
    return sorted((bit % 4, bit // 4 % 4, bit // 16) for bit in range(64) if mask >> bit & 1)


def mask_of(cells: list[tuple[int, int, int]]) -> int:
    return sum(1 << (16 * level + 4 * row + column) for column, row, level in cells)


def test_there_are_76_distinct_lines_of_four_cells() -> None:
    assert len(bb.LINES) == 76
    assert len(set(bb.LINES)) == 76
    assert all(line.bit_count() == 4 for line in bb.LINES)


def test_lines_agree_with_the_reference_walk() -> None:
    assert {tuple(cells_of(line)) for line in bb.LINES} == all_lines()


def classify(line: int) -> str:
    cells = cells_of(line)
    varying = [len({cell[axis] for cell in cells}) > 1 for axis in range(3)]
    column_varies, row_varies, level_varies = varying
    if varying == [False, False, True]:
        return "vertical"
    if not level_varies:
        return "level diagonal" if column_varies and row_varies else "straight"
    return "space diagonal" if column_varies and row_varies else "stair"


def test_line_families_match_the_rule_book() -> None:
    counts: dict[str, int] = {}
    for line in bb.LINES:
        counts[classify(line)] = counts.get(classify(line), 0) + 1
    assert counts == {"vertical": 16, "straight": 32, "level diagonal": 8, "stair": 16, "space diagonal": 4}


def test_lines_through_each_cell_are_exactly_the_lines_containing_it() -> None:
    for bit in range(64):
        expected = {line for line in bb.LINES if line >> bit & 1}
        assert set(bb.LINES_THROUGH[bit]) == expected
        assert len(bb.LINES_THROUGH[bit]) == len(expected)
    # Corners and the 8 central cells lie on 7 lines, every other cell on 4.
    assert sorted({len(lines) for lines in bb.LINES_THROUGH}) == [4, 7]


def test_masks_partition_the_board() -> None:
    assert bb.FULL == (1 << 64) - 1
    assert sum(bb.PEG_MASKS) == bb.FULL
    assert sum(bb.LEVEL_MASKS) == bb.FULL
    assert bb.LEVEL_MASKS[0] == bb.BOTTOM and bb.LEVEL_MASKS[3] == bb.TOP
    for peg, mask in enumerate(bb.PEG_MASKS):
        assert bb.iter_bits(mask) == [peg, peg + 16, peg + 32, peg + 48]


def test_drop_bit_follows_gravity_and_returns_zero_on_a_full_peg() -> None:
    occupied = 0
    for level in range(4):
        landing = bb.drop_bit(occupied, 6)
        assert landing == 1 << (16 * level + 6)
        occupied |= landing
    assert bb.drop_bit(occupied, 6) == 0
    assert bb.legal_pegs_mask(occupied) == 0xFFFF & ~(1 << 6)
    assert bb.playable_cells(occupied) == bb.BOTTOM & ~(1 << 6)


def test_playable_cells_is_the_lowest_empty_cell_of_each_peg() -> None:
    occupied = (1 << 0) | (1 << 16) | (1 << 5)  # peg 0 holds two beads, peg 5 one
    expected = {peg: 1 << peg for peg in range(16)}
    expected[0] = 1 << 32
    expected[5] = 1 << 21
    assert bb.playable_cells(occupied) == sum(expected.values())
    for peg in range(16):
        assert bb.drop_bit(occupied, peg) == expected[peg]


@pytest.mark.parametrize("line", bb.LINES)
def test_is_win_at_detects_each_line_from_each_of_its_cells(line: int) -> None:
    for bit in bb.iter_bits(line):
        assert bb.is_win_at(line, bit)
        assert bb.winning_line_at(line, bit) == line
        assert not bb.is_win_at(line & ~(1 << bit), bit)
    assert bb.has_win(line)


def test_three_in_a_line_is_a_threat_on_the_empty_fourth_cell() -> None:
    for line in bb.LINES:
        for missing in bb.iter_bits(line):
            own = line & ~(1 << missing)
            assert bb.threat_cells(own, own) & (1 << missing)
            assert not bb.threat_cells(own, own | (1 << missing)) & (1 << missing)


def test_iter_bits_lists_set_bits_ascending() -> None:
    assert bb.iter_bits(0) == []
    assert bb.iter_bits(0b1011 | 1 << 63) == [0, 1, 3, 63]


def test_directions_are_13_and_pairwise_not_opposite() -> None:
    assert len(bb.DIRECTIONS) == 13
    for first, second in itertools.combinations(bb.DIRECTIONS, 2):
        assert tuple(-x for x in first) != second
