"""The CPU's guarantees, level by level: take a win, block a single threat, never drop beneath a threat."""

from __future__ import annotations

import random

import pytest

from games.engine import Cell, Colour, Peg, Position, playable_cells, threat_cells
from games.engine.cpu import Level, choose_move, think

SEARCHING = [Level.MEDIUM, Level.HARD, Level.MASTER]
GUARANTEED = [Level.EASY, *SEARCHING]
# Small budgets keep the suite fast; the guarantees come from the shortcuts before any search.
BUDGET_MS = 30

# Red to move: Red completes row 1 at d1 (a1 b1 c1 on level 1); Yellow threatens d3 (a3 b3 c3).
RED_WINS_AT_D1 = "a1 a3 b1 b3 c1 c3"
# Yellow to move: Red threatens d1 and Yellow has nothing better.
YELLOW_MUST_BLOCK_D1 = "a1 a3 b1 b3 c1"
# Red to move, no playable threat on either side; Yellow has a threat one level above a playable cell.
BENEATH_A_THREAT = [
    "b1 a1 b3 b4 a1 c2 a3 b4 b4 b3 d1 b3 c2 b1 b3 d2 d4 a3 a2 c3 c3 c3",
    "d3 b1 d1 c3 b3 d2 c3 b1 b2 a3 c3 b4 b3 d2 b4 d1 a3 c2 a3 a1 a4 d3 c2 b4",
    "a4 c2 d2 b1 d1 a4 c1 c1 b1 c4 b4 a1 c4 d1 a4 c2 a2 c3 d1 b4",
]


def poisoned_pegs(position: Position) -> set[Peg]:
    """Pegs whose next bead would land directly beneath a threat cell of the opponent."""
    assert position.to_move is not None
    poisoned = set()
    for threat in position.threats(position.to_move.other):
        if threat.cell.level > 1:
            below = Cell(threat.cell.peg, threat.cell.level - 1)
            if position.landing_cell(threat.cell.peg) == below:
                poisoned.add(threat.cell.peg)
    return poisoned


@pytest.mark.parametrize("level", GUARANTEED)
def test_takes_a_win_in_one_rather_than_blocking(level: Level) -> None:
    for seed in range(3):
        assert choose_move(RED_WINS_AT_D1, level, budget_ms=BUDGET_MS, seed=seed) == "d1"


@pytest.mark.parametrize("level", GUARANTEED)
def test_blocks_a_single_playable_threat(level: Level) -> None:
    for seed in range(3):
        assert choose_move(YELLOW_MUST_BLOCK_D1, level, budget_ms=BUDGET_MS, seed=seed) == "d1"


@pytest.mark.parametrize("level", SEARCHING)
@pytest.mark.parametrize("record", BENEATH_A_THREAT)
def test_never_drops_beneath_a_threat(level: Level, record: str) -> None:
    position = Position.from_record(record)
    poisoned = poisoned_pegs(position)
    assert poisoned, "the position must contain the trap"
    for seed in range(2):
        peg = Peg.from_name(choose_move(record, level, budget_ms=BUDGET_MS, seed=seed))
        assert peg not in poisoned


def random_positions(count: int, seed: int) -> list[Position]:
    """Positions from random games, stopped at random plies, none finished."""
    rng = random.Random(seed)
    positions: list[Position] = []
    while len(positions) < count:
        position = Position.initial()
        for _ in range(rng.randrange(6, 40)):
            if position.to_move is None:
                break
            position = position.play(rng.choice(position.legal_pegs()))
        if position.to_move is not None:
            positions.append(position)
    return positions


@pytest.mark.parametrize("level", GUARANTEED)
def test_guarantees_hold_on_random_positions(level: Level) -> None:
    for index, position in enumerate(random_positions(25, seed=int(level))):
        assert position.to_move is not None
        me = position.to_move
        occupied = position.occupied
        play = playable_cells(occupied)
        wins = play & threat_cells(position.bits(me), occupied)
        blocks = play & threat_cells(position.bits(me.other), occupied)
        peg = think(position, level, budget_ms=BUDGET_MS, seed=index).peg
        landing = position.landing_cell(peg)
        assert landing is not None
        if wins:
            assert wins >> landing.bit & 1, position.record()
        elif blocks and not blocks & (blocks - 1):
            assert blocks >> landing.bit & 1, position.record()
        elif level >= Level.MEDIUM and not blocks:
            poisoned = poisoned_pegs(position)
            if set(position.legal_pegs()) - poisoned:
                assert peg not in poisoned, position.record()


def test_beginner_misses_things_on_purpose_but_not_always() -> None:
    results = [choose_move(RED_WINS_AT_D1, Level.BEGINNER, seed=seed) for seed in range(60)]
    assert 0 < results.count("d1") < 60


def test_beginner_is_not_random_play() -> None:
    # On an empty board it prefers pegs with many lines (the corners and the centre) over the edges.
    edges = {"a2", "a3", "b1", "b4", "c1", "c4", "d2", "d3"}
    picks = [choose_move("", Level.BEGINNER, seed=seed) for seed in range(60)]
    assert sum(peg in edges for peg in picks) < 20  # uniform play would pick an edge about 30 times


def test_level_two_wins_against_yellow_threat_only_after_blocking_red() -> None:
    # Yellow to move with a playable win of its own at d3 beats blocking Red's d1.
    record = "a1 a3 b1 b3 c1 c3 a2"
    assert Position.from_record(record).to_move is Colour.YELLOW
    assert choose_move(record, Level.EASY, seed=1) == "d3"
