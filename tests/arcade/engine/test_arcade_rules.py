"""ARCADE.md's rules that the shared vectors do not hold: the modes, the layout, spawns dealt from the
caller's randomness, opening tiles, the cap, undo's bookkeeping and the record's JSON form."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from arcade.engine import (
    CLASSIC,
    CUBE2,
    CUBE3,
    CUBE3_HARD,
    MODES,
    ActionStep,
    BadBoard,
    BadDirection,
    BadMode,
    BadRecord,
    BadSpawn,
    CellKind,
    Direction,
    MoveStep,
    NotPlaying,
    Record,
    Spawn,
    Status,
    UndoSpent,
    board_from,
    cube_mode,
    deal_spawns,
    end_run,
    mode_by_id,
    open_run,
    place_spawns,
    play,
    replay,
    run_at,
    start_run,
    undo,
)


class Scripted:
    """A randomness source answering from lists, failing when asked for more: it shows what was drawn."""

    def __init__(self, indexes: list[int], floats: list[float]) -> None:
        self.indexes, self.floats, self.ranges = list(indexes), list(floats), []

    def random(self) -> float:
        return self.floats.pop(0)

    def randrange(self, start: int, /) -> int:
        self.ranges.append(start)
        return self.indexes.pop(0)


def test_the_modes_and_their_tables() -> None:
    assert list(MODES) == ["classic", "cube2", "cube3", "cube3-hard"]
    assert [MODES[m].shape.extent for m in MODES] == [(4, 4), (2, 2, 2), (3, 3, 3), (3, 3, 3)]
    assert [MODES[m].shape.cells for m in MODES] == [16, 8, 27, 27]
    assert [MODES[m].spawns for m in MODES] == [1, 1, 1, 2]
    assert [MODES[m].target for m in MODES] == [2048, 256, 2048, 2048]
    assert [MODES[m].undo for m in MODES] == [False, True, True, True]
    assert CLASSIC.four_rate == 0.1 and not CLASSIC.target_wins
    # The 2x2x2 board has the lowest four-rate of all modes.
    assert all(CUBE2.four_rate < mode.four_rate for mode in MODES.values() if mode is not CUBE2)
    assert CLASSIC.move_cap == 20_000
    with pytest.raises(BadMode) as caught:
        mode_by_id("cube2-hard")
    assert caught.value.code == "bad_mode"


def test_hard_on_the_2x2x2_gives_normal() -> None:
    assert cube_mode(2, hard=True) is CUBE2 and cube_mode(2) is CUBE2
    assert cube_mode(3) is CUBE3 and cube_mode(3, hard=True) is CUBE3_HARD
    with pytest.raises(BadMode):
        cube_mode(4)


def test_the_square_has_four_directions_the_cubes_six() -> None:
    assert set(CLASSIC.shape.directions) == {"left", "right", "up", "down"}
    assert set(CUBE2.shape.directions) == set(Direction)
    with pytest.raises(BadDirection) as caught:
        CLASSIC.shape.direction("forward")
    assert caught.value.code == "bad_dir"
    with pytest.raises(BadDirection):
        play(start_run(mode=CLASSIC, rng=random.Random(1)), "north", rng=random.Random(1))


def test_the_layout_of_cells() -> None:
    assert CUBE3.shape.coords(5) == (2, 1, 0) and CUBE3.shape.coords(22) == (1, 1, 2)
    assert CLASSIC.shape.coords(7) == (3, 1)
    assert all(CUBE3.shape.index(CUBE3.shape.coords(cell)) == cell for cell in range(27))
    # 8 corner, 12 edge, 6 face-centre cells and 1 body-centre cell; the 2x2x2 has corners only.
    assert Counter(CUBE3.shape.kind(cell) for cell in range(27)) == {
        CellKind.CORNER: 8, CellKind.EDGE: 12, CellKind.FACE: 6, CellKind.CENTRE: 1}
    assert CUBE3.shape.kind(13) is CellKind.CENTRE and CUBE3.shape.kind(4) is CellKind.FACE
    assert {CUBE2.shape.kind(cell) for cell in range(8)} == {CellKind.CORNER}
    assert len(CUBE3.shape.neighbour_pairs()) == 54 and len(CLASSIC.shape.neighbour_pairs()) == 24


def test_a_board_is_checked() -> None:
    assert board_from([0] * 15 + [2048], shape=CLASSIC.shape)[15] == 2048
    for bad in ([0] * 15, [0] * 15 + [3], [0] * 15 + [1], [0] * 15 + [-2]):
        with pytest.raises(BadBoard):
            board_from(bad, shape=CLASSIC.shape)


def test_a_spawn_is_a_uniform_empty_cell_then_a_4_at_the_four_rate() -> None:
    board = (2, 0, 4, 0, 0, 8, 2, 4)
    rng = Scripted(indexes=[2, 0], floats=[0.049, 0.05])
    assert deal_spawns(board, mode=CUBE2, count=2, rng=rng) == (Spawn(cell=4, value=4), Spawn(cell=1, value=2))
    # The second chosen among the cells still empty after the first.
    assert rng.ranges == [3, 2]


def test_the_cells_and_values_dealt_follow_the_rates() -> None:
    rng = random.Random(7)
    board = (2, 0, 0, 4, 0, 0, 0, 0) + (8,) * 8
    draws = [deal_spawns(board, mode=CLASSIC, count=1, rng=rng)[0] for _ in range(20_000)]
    cells = Counter(spawn.cell for spawn in draws)
    assert set(cells) == {1, 2, 4, 5, 6, 7}
    assert all(abs(count - 20_000 / 6) < 250 for count in cells.values())  # ~5 standard deviations
    fours = sum(spawn.value == 4 for spawn in draws)
    assert abs(fours - 2_000) < 220


def test_a_move_that_moves_nothing_draws_nothing() -> None:
    state = run_at(mode=CUBE3, board=[2] + [0] * 26)
    done = play(state, "left", rng=Scripted(indexes=[], floats=[]))
    assert (done.moved, done.state, done.spawned, done.gained) == (False, state, (), 0)


def test_a_run_opens_with_two_tiles_on_hard_too() -> None:
    state = start_run(mode=CUBE3_HARD, rng=random.Random(3))
    assert sum(1 for cell in state.board if cell) == 2
    assert (state.score, state.moves, state.status, state.can_undo) == (0, 0, Status.PLAYING, False)
    with pytest.raises(BadSpawn):
        open_run(mode=CUBE3, opening=[Spawn(cell=3, value=2), Spawn(cell=3, value=4)])
    with pytest.raises(BadSpawn):
        open_run(mode=CUBE3, opening=[Spawn(cell=3, value=2), Spawn(cell=30, value=2)])
    with pytest.raises(BadSpawn):
        place_spawns((0,) * 8, [Spawn(cell=0, value=8)])


def test_hard_spawns_two_from_the_first_move() -> None:
    rng = random.Random(5)
    state = start_run(mode=CUBE3_HARD, rng=rng)
    direction = next(d for d in CUBE3.shape.directions if play(state, d, rng=random.Random(0)).moved)
    done = play(state, direction, rng=rng)
    assert len(done.spawned) == 2
    assert sum(1 for cell in done.state.board if cell) == 4 - len(done.merged)


def test_the_cap_counts_undone_moves_and_ends_the_run() -> None:
    rng = random.Random(11)
    state = start_run(mode=CUBE3, rng=rng, move_cap=3)
    first = next(d for d in CUBE3.shape.directions if play(state, d, rng=random.Random(0)).moved)
    state = undo(play(state, first, rng=rng).state)
    assert (state.moves, state.played) == (0, 1)
    while state.status is Status.PLAYING:
        state = next(done.state for d in CUBE3.shape.directions if (done := play(state, d, rng=rng)).moved)
    assert (state.status, state.moves, state.played, state.can_undo, state.is_final) == (Status.ENDED, 2, 3, False,
                                                                                         True)
    with pytest.raises(NotPlaying):
        play(state, first, rng=rng)


def test_undo_keeps_the_peak_and_empties_the_slot() -> None:
    state = run_at(mode=CUBE2, board=[2, 2, 0, 0, 0, 0, 0, 0], score=10)
    done = play(state, "left", rng=Scripted(indexes=[0], floats=[0.5]))
    assert (done.state.score, done.state.peak_score, done.gained, done.merged) == (14, 14, 4, (0,))
    back = undo(done.state)
    assert (back.board, back.score, back.peak_score, back.peak_tile, back.moves) == (state.board, 10, 14, 4, 0)
    assert back.slot is None and not back.can_undo
    with pytest.raises(UndoSpent):
        undo(back)


def test_a_stuck_classic_run_is_final_a_stuck_cube_run_can_undo() -> None:
    stuck = [2 if (cell % 4 + cell // 4) % 2 == 0 else 4 for cell in range(16)]
    assert run_at(mode=CLASSIC, board=stuck).is_final
    cube = [2, 4, 8, 16, 32, 64, 128, 0]  # 128 slides right, a 2 spawns on cell 6: every neighbour differs
    done = play(run_at(mode=CUBE2, board=cube), "right", rng=Scripted(indexes=[0], floats=[0.5]))
    assert done.moved and done.state.status is Status.OVER and not done.state.is_final
    assert undo(done.state).status is Status.PLAYING
    assert end_run(done.state).is_final


def test_a_live_run_and_its_replay_agree() -> None:
    rng = random.Random(99)
    state = start_run(mode=CUBE3, rng=rng)
    opening = tuple(Spawn(cell=cell, value=value) for cell, value in enumerate(state.board) if value)
    steps: list[MoveStep | ActionStep] = []
    for turn in range(300):
        if state.status is not Status.PLAYING:
            break
        if turn % 7 == 3 and state.can_undo:
            state = undo(state)
            steps.append(ActionStep(op="undo"))
            continue
        direction = rng.choice(CUBE3.shape.directions)
        done = play(state, direction, rng=rng)
        if done.moved:
            steps.append(MoveStep(direction=direction, spawned=done.spawned))
        state = done.state
    record = Record(mode=CUBE3, opening=opening, steps=tuple(steps))
    assert replay(record) == state
    assert replay(Record.from_json(record.to_json())) == state
    assert state.peak_score > state.score or state.peak_score == state.score > 0


@pytest.mark.parametrize("data", [
    None, [], {"mode": "nope", "opening": []}, {"mode": "classic"}, {"mode": "classic", "opening": [{"cell": "1"}]},
    {"mode": "classic", "opening": [], "steps": [{"op": "jump"}]},
    {"mode": "classic", "opening": [], "steps": [{"op": "move", "dir": "forward", "spawned": []}]},
    {"mode": "classic", "opening": [{"cell": True, "value": 2}]},
    {"mode": "classic", "move_cap": 0, "opening": []},
])
def test_a_malformed_record_is_refused(data: object) -> None:
    with pytest.raises(BadRecord) as caught:
        Record.from_json(data)
    assert caught.value.code == "bad_record"
