"""The 8 symmetries of the grid: pegs, bitboards, positions, canonical keys."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import (
    COMPOSE,
    INVERSE,
    LINES,
    PEG_PERMUTATIONS,
    Cell,
    Peg,
    Position,
    Symmetry,
    canonical_form,
    canonical_key,
    images,
    transform_bits,
    transform_position,
)

GENERIC = "a1 b1 c2 a1 d3"  # no symmetry maps this board onto itself


def slow_transform(symmetry: int, bits: int) -> int:
    """Move every set bit to its image, one bit at a time."""
    out = 0
    for bit in range(64):
        if bits >> bit & 1:
            out |= 1 << (16 * (bit // 16) + PEG_PERMUTATIONS[symmetry][bit % 16])
    return out


def test_peg_maps_are_distinct_permutations() -> None:
    assert len(set(PEG_PERMUTATIONS)) == 8
    for permutation in PEG_PERMUTATIONS:
        assert sorted(permutation) == list(range(16))
    assert PEG_PERMUTATIONS[Symmetry.IDENTITY] == tuple(range(16))


def test_named_symmetries_move_a1_as_documented() -> None:
    expected = {
        Symmetry.IDENTITY: "a1",
        Symmetry.FLIP_COLUMNS: "d1",
        Symmetry.FLIP_ROWS: "a4",
        Symmetry.ROTATE_180: "d4",
        Symmetry.TRANSPOSE: "a1",
        Symmetry.ROTATE_90: "d1",
        Symmetry.ROTATE_270: "a4",
        Symmetry.ANTI_TRANSPOSE: "d4",
    }
    assert {s: str(s.apply_peg(Peg.A1)) for s in Symmetry} == expected
    assert str(Symmetry.TRANSPOSE.apply_peg(Peg.B1)) == "a2"
    assert str(Symmetry.ANTI_TRANSPOSE.apply_peg(Peg.A4)) == "a4"


def test_rotations_generate_the_cyclic_subgroup() -> None:
    quarter = Symmetry.ROTATE_90
    assert quarter.then(quarter) is Symmetry.ROTATE_180
    assert quarter.then(quarter).then(quarter) is Symmetry.ROTATE_270
    assert quarter.then(quarter).then(quarter).then(quarter) is Symmetry.IDENTITY
    peg = Peg.A1
    orbit = []
    for _ in range(4):
        peg = quarter.apply_peg(peg)
        orbit.append(str(peg))
    assert orbit == ["d1", "d4", "a4", "a1"]


def test_composition_is_a_group() -> None:
    identity = Symmetry.IDENTITY
    for a in Symmetry:
        assert a.then(identity) is a and identity.then(a) is a
        assert a.then(a.inverse) is identity and a.inverse.then(a) is identity
        assert INVERSE[a] == a.inverse
        for b in Symmetry:
            for peg in Peg:
                assert a.then(b).apply_peg(peg) is b.apply_peg(a.apply_peg(peg))
            for c in Symmetry:
                assert a.then(b).then(c) is a.then(b.then(c))
    assert all(sorted(row) == list(range(8)) for row in COMPOSE)  # a Latin square: closure + cancellation


def test_symmetries_preserve_the_set_of_lines() -> None:
    for symmetry in Symmetry:
        assert {symmetry.apply_bits(line) for line in LINES} == set(LINES)


@given(st.integers(min_value=0, max_value=(1 << 64) - 1))
def test_fast_bitboard_transform_matches_bit_by_bit(bits: int) -> None:
    all_images = images(bits)
    for symmetry in Symmetry:
        expected = slow_transform(symmetry, bits)
        assert transform_bits(symmetry, bits) == expected
        assert symmetry.apply_bits(bits) == expected
        assert all_images[symmetry] == expected
        assert transform_bits(symmetry.inverse, expected) == bits


def test_images_keep_levels_and_match_the_bitboard_transform() -> None:
    position = Position.from_record(GENERIC)
    for symmetry in Symmetry:
        image = transform_position(symmetry, position)
        for cell in (Cell(Peg.B1, 3), Cell(Peg.D4, 1)):
            assert symmetry.apply_cell(cell) == Cell(symmetry.apply_peg(cell.peg), cell.level)
        assert image.red == symmetry.apply_bits(position.red)
        assert image.yellow == symmetry.apply_bits(position.yellow)


def test_a_position_and_its_images_share_one_key() -> None:
    position = Position.from_record(GENERIC)
    transformed = [position.transformed(symmetry) for symmetry in Symmetry]
    assert len({image.canonical_key() for image in transformed}) == 1
    assert len({(image.red, image.yellow) for image in transformed}) == 8
    assert len({image.record() for image in transformed}) == 8


def test_a_symmetric_position_has_fewer_distinct_images() -> None:
    position = Position.from_record("a1 d4")  # both beads on the a1-d4 diagonal
    boards = {(position.transformed(s).red, position.transformed(s).yellow) for s in Symmetry}
    assert len(boards) == 4  # TRANSPOSE fixes the board, so the 8 symmetries give 8 / 2 images
    assert position.transformed(Symmetry.TRANSPOSE) == position


def test_different_boards_get_different_keys() -> None:
    first = Position.from_record("a1 b1")
    second = Position.from_record("b1 a1")  # colours swapped: not a symmetric image
    assert first.canonical_key() != second.canonical_key()


@pytest.mark.parametrize("record", [GENERIC, "b2 c3 a4 a4 d1", "", "a1 d4 a1 d4"])
def test_canonical_form_symmetry_maps_the_board_to_the_key_and_moves_back(record: str) -> None:
    position = Position.from_record(record)
    key, symmetry = canonical_form(position.red, position.yellow)
    assert key == canonical_key(position.red, position.yellow) == position.canonical_key()
    assert position.canonical_symmetry() is symmetry
    canonical = position.transformed(symmetry)
    assert (canonical.red << 64) | canonical.yellow == key
    # A move chosen in the canonical frame maps back to an equivalent move of the original.
    for peg in canonical.legal_pegs():
        original_move = symmetry.inverse.apply_peg(peg)
        after = position.play(original_move)
        assert after.transformed(symmetry) == canonical.play(peg)
        assert after.canonical_key() == canonical.play(peg).canonical_key()
    assert key == min((s.apply_bits(position.red) << 64) | s.apply_bits(position.yellow) for s in Symmetry)


def test_symmetry_values_are_the_documented_composition() -> None:
    for transpose, flip_rows, flip_columns in itertools.product((0, 1), repeat=3):
        value = 4 * transpose + 2 * flip_rows + flip_columns
        steps = [Symmetry.TRANSPOSE] * transpose + [Symmetry.FLIP_ROWS] * flip_rows
        steps += [Symmetry.FLIP_COLUMNS] * flip_columns
        composed = Symmetry.IDENTITY
        for step in steps:
            composed = composed.then(step)
        assert composed == value
