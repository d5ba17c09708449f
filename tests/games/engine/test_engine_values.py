"""Value types: pegs, cells, colours, status, outcome, threats."""

from __future__ import annotations

import dataclasses

import pytest

from games.engine import BadPeg, Cell, Colour, Outcome, Peg, Status, Threat


def test_pegs_iterate_and_sort_in_name_order() -> None:
    names = [str(peg) for peg in Peg]
    assert names == [letter + digit for letter in "abcd" for digit in "1234"]
    assert sorted(Peg, key=lambda peg: peg.index) != list(Peg)
    assert sorted(reversed(list(Peg))) == list(Peg)


@pytest.mark.parametrize("peg", list(Peg))
def test_peg_parses_its_own_name_and_knows_its_coordinates(peg: Peg) -> None:
    assert Peg.from_name(str(peg)) is peg
    assert peg.column == "abcd".index(str(peg)[0])
    assert peg.row == int(str(peg)[1]) - 1
    assert peg.index == 4 * peg.row + peg.column
    assert Peg.from_index(peg.index) is peg


@pytest.mark.parametrize("name", ["x9", "e1", "a0", "a5", "A1", "", "a1 ", "a10", "1a"])
def test_bad_peg_names_are_refused(name: str) -> None:
    with pytest.raises(BadPeg) as raised:
        Peg.from_name(name)
    assert raised.value.code == "bad_peg"
    assert raised.value.message == f'"{name}" is not a peg.'
    assert str(raised.value) == raised.value.message
    assert raised.value.ply is None
    assert isinstance(raised.value, ValueError)


def test_peg_from_index_rejects_out_of_range() -> None:
    with pytest.raises(IndexError):
        Peg.from_index(16)


def test_cell_bit_layout_and_rendering() -> None:
    cell = Cell(Peg.B3, 2)
    assert cell.bit == 16 * 1 + 4 * 2 + 1
    assert str(cell) == "b3:2"
    assert Cell.from_name("b3:2") == cell
    assert Cell.from_bit(cell.bit) == cell
    assert [Cell.from_bit(bit).bit for bit in range(64)] == list(range(64))


@pytest.mark.parametrize("level", [0, 5, -1])
def test_cell_level_must_be_1_to_4(level: int) -> None:
    with pytest.raises(ValueError):
        Cell(Peg.A1, level)


def test_cell_from_name_rejects_bad_input() -> None:
    with pytest.raises(BadPeg):
        Cell.from_name("z1:1")
    with pytest.raises(ValueError):
        Cell.from_name("a1:5")
    with pytest.raises(ValueError):
        Cell.from_name("a1")


def test_cells_sort_by_peg_then_level() -> None:
    cells = [Cell(Peg.B1, 1), Cell(Peg.A2, 3), Cell(Peg.A2, 1), Cell(Peg.A1, 4)]
    assert [str(c) for c in sorted(cells)] == ["a1:4", "a2:1", "a2:3", "b1:1"]


def test_colours() -> None:
    assert Colour.RED.other is Colour.YELLOW and Colour.YELLOW.other is Colour.RED
    assert str(Colour.RED) == "red" and Colour.from_name("yellow") is Colour.YELLOW
    with pytest.raises(ValueError):
        Colour.from_name("blue")


def test_status_is_finished() -> None:
    assert not Status.PLAYING.is_finished
    assert Status.WON.is_finished and Status.DRAWN.is_finished
    assert [str(s) for s in Status] == ["playing", "won", "drawn"]


def test_outcome_and_threat_are_frozen_and_render() -> None:
    draw = Outcome(winner=None)
    assert draw.status is Status.DRAWN and str(draw) == "draw"
    assert str(Outcome(Colour.RED)) == "red won"
    threat = Threat(Colour.YELLOW, Cell(Peg.D1, 2), playable=False)
    assert str(threat) == "yellow threat at d1:2 (not yet playable)"
    with pytest.raises(dataclasses.FrozenInstanceError):
        threat.playable = True  # type: ignore[misc]
