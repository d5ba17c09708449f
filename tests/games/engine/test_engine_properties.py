"""Property tests: on random legal games the engine agrees with the naive reference at every ply."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Cell, Colour, Peg, Position, Symmetry
from tests.games.engine.engine_reference import RefGame

# 64 picks always play a game to its end (a win or the full board); every prefix is checked on the way.
choices = st.lists(st.integers(min_value=0, max_value=63), min_size=64, max_size=64)


def replay(picks: list[int]) -> list[Position]:
    """Positions along a legal game choosing ``legal[pick % len(legal)]`` each ply, until it ends."""
    positions = [Position.initial()]
    for pick in picks:
        legal = positions[-1].legal_pegs()
        if not legal:
            break
        positions.append(positions[-1].play(legal[pick % len(legal)]))
    return positions


def assert_agrees(position: Position, reference: RefGame) -> None:
    assert position.ply == reference.ply
    assert [str(peg) for peg in position.legal_pegs()] == reference.legal()
    assert position.status.value == reference.status()
    assert (position.to_move.value if position.to_move else None) == reference.to_move
    winner = position.outcome.winner if position.outcome else None
    assert (winner.value if winner else None) == reference.winner
    line = position.outcome.line if position.outcome else None
    assert ([(str(c.peg), c.level) for c in line] if line else None) == reference.line_names()
    for colour in Colour:
        threats = [(str(t.cell.peg), t.cell.level, t.playable) for t in position.threats(colour)]
        assert threats == reference.threats(colour.value)
        bits = position.bits(colour)
        cells = {(str(Cell.from_bit(b).peg), Cell.from_bit(b).level) for b in range(64) if bits >> b & 1}
        assert cells == reference.cells_of(colour.value)
    for peg in Peg:
        assert position.height(peg) == len(reference.grid[peg.column][peg.row])


@settings(max_examples=120, deadline=None)
@given(choices)
def test_engine_matches_reference_along_random_games(picks: list[int]) -> None:
    positions = replay(picks)
    reference = RefGame()
    assert_agrees(positions[0], reference)
    for position in positions[1:]:
        reference.play(str(position.moves[-1]))
        assert_agrees(position, reference)


@settings(max_examples=60, deadline=None)
@given(choices)
def test_record_round_trip(picks: list[int]) -> None:
    final = replay(picks)[-1]
    again = Position.from_record(final.record())
    assert again == final
    assert (again.red, again.yellow, again.outcome) == (final.red, final.yellow, final.outcome)


@settings(max_examples=60, deadline=None)
@given(choices, st.sampled_from(list(Symmetry)))
def test_symmetric_games_share_key_and_winner(picks: list[int], symmetry: Symmetry) -> None:
    final = replay(picks)[-1]
    image = final.transformed(symmetry)
    assert image.canonical_key() == final.canonical_key()
    assert image.status is final.status
    assert (image.outcome.winner if image.outcome else None) == (final.outcome.winner if final.outcome else None)
    assert image.red == symmetry.apply_bits(final.red) and image.yellow == symmetry.apply_bits(final.yellow)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=15), min_size=1, max_size=90))
def test_illegal_moves_in_records_are_reported_like_the_reference(pegs: list[int]) -> None:
    record = " ".join(str(Peg.from_index(p)) for p in pegs)
    reference = RefGame()
    expected_code, expected_ply = None, None
    for ply, name in enumerate(record.split()):
        try:
            reference.play(name)
        except Exception as error:  # the reference raises RefError
            expected_code, expected_ply = getattr(error, "code", None), ply
            break
    try:
        Position.from_record(record)
    except ValueError as error:
        assert (getattr(error, "code", None), getattr(error, "ply", None)) == (expected_code, expected_ply)
    else:
        assert expected_code is None
