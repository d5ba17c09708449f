"""Properties of the rules over random boards and runs (hypothesis): what a slide keeps, the board's
symmetries, a run's sums, and the replay of a live run."""

from __future__ import annotations

import dataclasses
import itertools
import math
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from arcade.engine import (
    MODES,
    Direction,
    Mode,
    MoveStep,
    Record,
    Shape,
    Spawn,
    Status,
    play,
    replay,
    slide,
    slide_line,
    start_run,
)

# (axis, toward the last index) of each direction, as docs/arcade.md states the layout.
AXES = {
    2: {"left": (0, False), "right": (0, True), "up": (1, False), "down": (1, True)},
    3: {"left": (0, False), "right": (0, True), "backward": (1, False), "forward": (1, True), "down": (2, False),
        "up": (2, True)},
}
SHAPES = [MODES["classic"].shape, MODES["cube2"].shape, MODES["cube3"].shape]
TILES = st.sampled_from([0, 0, 0, 2, 2, 4, 4, 8, 16, 32])


@st.composite
def boards(draw: st.DrawFn) -> tuple[Shape, tuple[int, ...]]:
    shape = draw(st.sampled_from(SHAPES))
    return shape, tuple(draw(st.lists(TILES, min_size=shape.cells, max_size=shape.cells)))


@settings(deadline=None)  # a loaded machine must not fail a property
@given(boards(), st.data())
def test_a_slide_keeps_the_sum_and_scores_its_merges(drawn: tuple[Shape, tuple[int, ...]], data: st.DataObject) -> None:
    shape, board = drawn
    direction = data.draw(st.sampled_from(shape.directions))
    done = slide(board, shape=shape, direction=direction)
    assert sum(done.board) == sum(board)
    assert done.gained == sum(done.board[cell] for cell in done.merged)
    assert sum(1 for v in done.board if v) == sum(1 for v in board if v) - len(done.merged)
    assert done.moved is (done.board != board)
    again = slide(done.board, shape=shape, direction=direction)
    if not done.merged:  # closed up with no equal neighbours: nothing left to do that way
        assert not again.moved


@settings(deadline=None)
@given(st.lists(TILES, min_size=1, max_size=6))
def test_a_line_holds_at_most_half_its_length_in_merges(line: list[int]) -> None:
    done = slide_line(line)
    assert len(done.merged) <= len(line) // 2
    tiles = [value for value in done.values if value]
    assert list(done.values) == tiles + [0] * (len(line) - len(tiles))  # closed up toward the wall


def transform(shape: Shape, perm: tuple[int, ...], flips: tuple[bool, ...], board: tuple[int, ...]) -> tuple[int, ...]:
    """The board with its axes permuted (old axis k becomes perm[k]) and the flipped ones mirrored."""
    out = [0] * shape.cells
    for cell, value in enumerate(board):
        coords = shape.coords(cell)
        moved = [0] * shape.dims
        for axis, coord in enumerate(coords):
            moved[perm[axis]] = shape.side - 1 - coord if flips[axis] else coord
        out[shape.index(tuple(moved))] = value
    return tuple(out)


def mapped(shape: Shape, perm: tuple[int, ...], flips: tuple[bool, ...], direction: Direction) -> Direction:
    axis, to_last = AXES[shape.dims][direction]
    wanted = (perm[axis], to_last != flips[axis])
    return next(Direction(name) for name, value in AXES[shape.dims].items() if value == wanted)


@settings(deadline=None)
@given(boards(), st.data())
def test_a_move_and_its_image_agree_under_the_boards_symmetries(drawn: tuple[Shape, tuple[int, ...]],
                                                                data: st.DataObject) -> None:
    shape, board = drawn
    perm = data.draw(st.sampled_from(list(itertools.permutations(range(shape.dims)))))
    flips = tuple(data.draw(st.lists(st.booleans(), min_size=shape.dims, max_size=shape.dims)))
    direction = data.draw(st.sampled_from(shape.directions))
    done = slide(board, shape=shape, direction=direction)
    image = slide(transform(shape, perm, flips, board), shape=shape, direction=mapped(shape, perm, flips, direction))
    assert image.board == transform(shape, perm, flips, done.board)
    assert (image.gained, image.moved) == (done.gained, done.moved)


def random_run(mode: Mode, seed: int, moves: int) -> tuple[Record, list[int]]:
    """A run played at random from ``seed``: its record and each counted move's gain."""
    rng = random.Random(seed)
    state = start_run(mode=mode, rng=rng)
    opening = tuple(Spawn(cell=cell, value=value) for cell, value in enumerate(state.board) if value)
    steps, gains = [], []
    while len(steps) < moves and state.status is Status.PLAYING:
        direction = rng.choice(mode.shape.directions)
        done = play(state, direction, rng=rng)
        if done.moved:
            steps.append(MoveStep(direction=direction, spawned=done.spawned))
            gains.append(done.gained)
        state = done.state
    return Record(mode=mode, opening=opening, steps=tuple(steps)), gains


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(list(MODES)), st.integers(0, 2**32))
def test_a_runs_tile_sum_is_its_spawns_and_its_score_its_merges(mode_id: str, seed: int) -> None:
    record, gains = random_run(MODES[mode_id], seed, 150)
    state = replay(record)
    spawned = sum(spawn.value for step in record.steps for spawn in step.spawned)
    assert sum(state.board) == sum(spawn.value for spawn in record.opening) + spawned
    assert state.score == state.peak_score == sum(gains)
    assert state.moves == len(record.steps)
    # The same seed deals the same run.
    assert random_run(MODES[mode_id], seed, 150)[0] == record


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(list(MODES)), st.integers(0, 2**32))
def test_from_2s_alone_a_tile_of_2_to_the_k_has_scored_k_minus_1_times_2_to_the_k(mode_id: str, seed: int) -> None:
    mode = dataclasses.replace(MODES[mode_id], four_rate=0.0)
    state = replay(random_run(mode, seed, 200)[0])
    assert state.score == sum((int(math.log2(value)) - 1) * value for value in state.board if value)
