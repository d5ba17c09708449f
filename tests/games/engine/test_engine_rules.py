"""Position: moves, gravity, errors, wins on every line, the draw, threats."""

from __future__ import annotations

import dataclasses

import pytest

from games.engine import (
    LINES,
    BadPeg,
    Cell,
    Colour,
    EngineError,
    GameOver,
    Peg,
    PegFull,
    Position,
    Status,
    Threat,
    iter_bits,
)
from tests.games.engine.engine_reference import RefGame
from tests.records import DRAWN_RECORD, RED_VERTICAL_WIN  # the draw: checked below against the reference


def test_initial_position() -> None:
    position = Position.initial()
    assert position.ply == 0 and position.moves == ()
    assert position.to_move is Colour.RED
    assert position.status is Status.PLAYING and position.outcome is None
    assert position.legal_pegs() == list(Peg)
    assert position.record() == "" == str(position)
    assert Position.from_record("") == position == Position.from_record("  \n ")
    assert position.bits(Colour.RED) == position.bits(Colour.YELLOW) == 0


def test_players_alternate_starting_with_red() -> None:
    position = Position.initial().play(Peg.C2)
    assert position.to_move is Colour.YELLOW
    assert position.colour_at(Cell(Peg.C2, 1)) is Colour.RED
    position = position.play(Peg.C2)
    assert position.to_move is Colour.RED
    assert position.colour_at(Cell(Peg.C2, 2)) is Colour.YELLOW
    assert position.colour_at(Cell(Peg.C2, 3)) is None


def test_gravity_stacks_beads_bottom_up() -> None:
    position = Position.initial()
    for level in range(1, 5):
        assert position.height(Peg.B3) == level - 1
        assert position.landing_cell(Peg.B3) == Cell(Peg.B3, level)
        position = position.play(Peg.B3)
    assert position.height(Peg.B3) == 4
    assert position.landing_cell(Peg.B3) is None
    assert Peg.B3 not in position.legal_pegs()
    assert len(position.legal_pegs()) == 15
    assert position.bits(Colour.RED) == (1 << Cell(Peg.B3, 1).bit) | (1 << Cell(Peg.B3, 3).bit)


def test_record_round_trip_and_normalisation() -> None:
    position = Position.from_record("  a1\tb1   a1 ")
    assert position.moves == (Peg.A1, Peg.B1, Peg.A1)
    assert position.record() == "a1 b1 a1" == str(position)
    assert Position.from_record(position.record()) == position


def test_play_returns_a_new_position_and_leaves_the_old_one_alone() -> None:
    before = Position.from_record("a1")
    after = before.play(Peg.A1)
    assert before.ply == 1 and after.ply == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        before.moves = ()  # type: ignore[misc]


def test_full_peg_is_refused_with_message_and_ply() -> None:
    position = Position.from_record("b3 b3 b3 b3")
    with pytest.raises(PegFull) as raised:
        position.play(Peg.B3)
    error = raised.value
    assert error.code == "peg_full"
    assert error.message == "Peg b3 is full: it already holds 4 beads."
    assert error.ply == 4
    assert position.to_move is Colour.RED  # still that player's turn
    with pytest.raises(PegFull) as from_record:
        Position.from_record("b3 b3 b3 b3 b3 a1")
    assert from_record.value.ply == 4


def test_bad_peg_in_record_reports_its_ply() -> None:
    with pytest.raises(BadPeg) as raised:
        Position.from_record("a1 b2 x9 c3")
    assert raised.value.code == "bad_peg"
    assert raised.value.message == '"x9" is not a peg.'
    assert raised.value.ply == 2


def test_a_move_after_a_win_is_refused() -> None:
    position = Position.from_record(RED_VERTICAL_WIN)
    with pytest.raises(GameOver) as raised:
        position.play(Peg.C1)
    assert raised.value.code == "game_over"
    assert raised.value.message == "The game is over: red won."
    assert raised.value.ply == 7
    with pytest.raises(GameOver) as from_record:
        Position.from_record(RED_VERTICAL_WIN + " c1 c1")
    assert from_record.value.ply == 7
    assert isinstance(from_record.value, EngineError)


def test_game_over_is_checked_before_the_peg_is() -> None:
    with pytest.raises(GameOver):
        Position.from_record(RED_VERTICAL_WIN).play(Peg.A1)  # a1 is also full
    with pytest.raises(BadPeg):
        Position.from_record(RED_VERTICAL_WIN + " x9")  # a bad name is a bad name, whatever the state


def test_vertical_win() -> None:
    position = Position.from_record(RED_VERTICAL_WIN)
    assert position.status is Status.WON
    assert position.to_move is None
    assert position.legal_pegs() == []
    assert position.outcome is not None
    assert position.outcome.winner is Colour.RED
    assert position.outcome.line == tuple(Cell(Peg.A1, level) for level in range(1, 5))


def test_yellow_can_win() -> None:
    position = Position.from_record("c3 a1 c3 b1 d4 c1 d4 d1")
    assert position.outcome is not None and position.outcome.winner is Colour.YELLOW
    assert [str(cell) for cell in position.outcome.line or ()] == ["a1:1", "b1:1", "c1:1", "d1:1"]


def test_complete_drawn_game() -> None:
    position = Position.from_record(DRAWN_RECORD)
    assert position.ply == 64
    assert position.status is Status.DRAWN
    assert position.outcome is not None
    assert position.outcome.winner is None and position.outcome.line is None
    assert position.to_move is None and position.legal_pegs() == []
    assert position.occupied.bit_count() == 64
    assert position.bits(Colour.RED).bit_count() == position.bits(Colour.YELLOW).bit_count() == 32
    with pytest.raises(GameOver) as raised:
        position.play(Peg.A1)
    assert raised.value.message == "The game is over: it was a draw."
    reference = RefGame.from_record(DRAWN_RECORD)
    assert reference.status() == "drawn" and reference.ply == 64


def test_the_draw_needs_the_last_cell() -> None:
    position = Position.from_record(DRAWN_RECORD.rsplit(" ", 1)[0])
    assert position.ply == 63 and position.status is Status.PLAYING
    assert position.legal_pegs() == [Peg.C2]


def test_threats_playable_and_not_playable() -> None:
    # Red holds a1:2 b1:2 c1:2 (d1:2 needs a bead below it); yellow holds a1:1 b1:1 c1:1.
    position = Position.from_record("a2 a1 a1 b1 b1 c1 c1")
    assert position.threats(Colour.RED) == [Threat(Colour.RED, Cell(Peg.D1, 2), playable=False)]
    assert position.threats(Colour.YELLOW) == [Threat(Colour.YELLOW, Cell(Peg.D1, 1), playable=True)]
    after = position.play(Peg.D2)  # yellow ignores its own threat
    assert after.threats(Colour.YELLOW) == [Threat(Colour.YELLOW, Cell(Peg.D1, 1), playable=True)]
    blocked = position.play(Peg.D1)  # yellow wins on d1:1
    assert blocked.outcome is not None and blocked.outcome.winner is Colour.YELLOW


def test_threats_are_sorted_by_peg_then_level() -> None:
    # Red builds both a level-1 row threat (d1:1) and a vertical threat (a2:4).
    position = Position.from_record("a2 b4 a2 c3 a2 d4 a1 b3 b1 d2 c1")
    threats = position.threats(Colour.RED)
    assert threats == sorted(threats, key=lambda threat: threat.cell)
    assert {str(t.cell) for t in threats} >= {"a2:4", "d1:1"}
    reference = RefGame.from_record(position.record()).threats("red")
    assert [(str(t.cell.peg), t.cell.level, t.playable) for t in threats] == reference


def _supported_cells(line: int) -> set[int]:
    """Bits of the line cells and every cell below them (what must be filled to complete the line)."""
    cells = set()
    for bit in iter_bits(line):
        cells.update(range(bit % 16, bit + 1, 16))
    return cells


def _win_on(line: int, colour: Colour) -> Position:
    """A legal game in which ``colour`` wins by completing ``line`` (depth-first search)."""
    needed = _supported_cells(line)
    target = set(iter_bits(line))

    def search(position: Position, budget: int) -> Position | None:
        if position.outcome is not None:
            done = position.outcome.winner is colour and position.outcome.line is not None
            return position if done and {c.bit for c in position.outcome.line or ()} == target else None
        if budget == 0:
            return None
        ranked = []
        for peg in position.legal_pegs():
            cell = position.landing_cell(peg)
            assert cell is not None
            if cell.bit in target:
                rank = 0 if position.to_move is colour else None
            elif cell.bit in needed:
                rank = 1
            else:
                rank = 2
            if rank is not None:
                ranked.append((rank, peg))
        for _, peg in sorted(ranked):
            found = search(position.play(peg), budget - 1)
            if found is not None:
                return found
        return None

    found = search(Position.initial(), 30)
    assert found is not None, f"no winning game found for {colour} on line {line:#x}"
    return found


@pytest.mark.parametrize("colour", list(Colour))
@pytest.mark.parametrize("line", LINES)
def test_every_line_wins_for_each_colour(line: int, colour: Colour) -> None:
    position = _win_on(line, colour)
    assert position.status is Status.WON
    assert position.outcome is not None and position.outcome.winner is colour
    assert sum(1 << cell.bit for cell in position.outcome.line or ()) == line
    reference = RefGame.from_record(position.record())
    assert reference.winner == colour.value
    assert reference.line_names() == [(str(c.peg), c.level) for c in position.outcome.line or ()]
