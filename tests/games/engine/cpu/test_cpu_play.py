"""Playing whole moves and games: seeds, variety, the time budget, a small ladder."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.engine import Position
from games.engine.cpu import LEVELS, Level, choose_move, default_budget_ms, think
from games.engine.cpu.search import _CHECK_INTERVAL
from games.engine.match import Player, play_game

MIDGAME = "b2 c3 b3 c2 a1 d4 b2 c3 a4 d1 c2 b3"
# A game between two Medium players; Master tries its solver first from ply 34, Hard from ply 44.
LATE_GAME = (
    "a1 a4 d1 d4 b1 c1 b4 c4 b1 b1 d1 c1 c1 c2 c3 c2 c2 b2 c4 a2 d2 b2 d2 b2 b2 d4 d2 d2 a1 c3 c3 c4 d4 d4 b4 a2 "
    "b4 b4 c4 a2 a2 d3 d3 d3 d3 a3 a3 c1 c2 b1 c3 b3 b3 b3 b3 a1 a1 a4 d1 d1 a4 a4 a3 a3"
)
LATE_36 = " ".join(LATE_GAME.split()[:36])
LATE_44 = " ".join(LATE_GAME.split()[:44])


def test_default_budgets() -> None:
    assert [default_budget_ms(level) for level in range(1, 6)] == [40, 60, 120, 1000, 2000]
    assert all(default_budget_ms(level) < 200 for level in (1, 2, 3))
    with pytest.raises(ValueError, match=r"1\.\.5"):
        default_budget_ms(6)


def test_every_level_has_a_player_paragraph() -> None:
    assert [settings.title for settings in LEVELS.values()] == ["Beginner", "Easy", "Medium", "Hard", "Master"]
    assert all(len(settings.description) > 80 for settings in LEVELS.values())


def test_docs_show_each_level_paragraph() -> None:
    text = (Path(__file__).resolve().parents[4] / "docs" / "cpu.md").read_text(encoding="utf-8")
    for level, settings in LEVELS.items():
        assert f"### {int(level)} {settings.title}\n\n{settings.description}\n" in text


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="over"):
        choose_move("a1 b1 a1 b1 a1 b1 a1", 3)
    with pytest.raises(ValueError, match=r"1\.\.5"):
        choose_move("", 0)


@pytest.mark.parametrize("level", [1, 2, 3])
def test_a_seed_reproduces_a_whole_game(level: int) -> None:
    # Generous budgets: these levels stop on their depth limit long before the clock matters.
    cpu = Player(Level(level), budget_ms=5000)
    opponent = Player(Level.EASY)
    first = play_game(cpu, opponent, index=0, seed=42)
    again = play_game(cpu, opponent, index=0, seed=42)
    assert first.record == again.record


@pytest.mark.parametrize("level", [Level.HARD, Level.MASTER])
def test_a_seed_and_a_node_budget_reproduce_a_searched_move(level: Level) -> None:
    position = Position.from_record(MIDGAME)
    decisions = [think(position, level, budget_ms=10_000, seed=9, max_nodes=4000) for _ in range(2)]
    assert decisions[0].peg == decisions[1].peg
    assert decisions[0].nodes == decisions[1].nodes
    assert decisions[0].depth >= 3


def test_without_a_seed_moves_vary_between_games() -> None:
    assert len({choose_move("", 3) for _ in range(12)}) > 1


def test_different_seeds_give_different_games() -> None:
    players = Player(Level.MEDIUM, budget_ms=5000), Player(Level.EASY)
    records = {play_game(*players, index=0, seed=seed).record for seed in range(3)}
    assert len(records) > 1


@pytest.mark.parametrize("level", [Level.HARD, Level.MASTER])
@pytest.mark.parametrize("record", ["", MIDGAME, LATE_36, LATE_44], ids=["opening", "ply12", "ply36", "ply44"])
def test_the_time_budget_is_respected(level: Level, record: str) -> None:
    # On a clock that reads one millisecond later at each reading (the machine's load out of it): the search
    # never reads it past the budget, and reads it at least every _CHECK_INTERVAL nodes.
    readings: list[float] = []

    def clock() -> float:
        readings.append(len(readings) / 1000)
        return readings[-1]

    decision = think(Position.from_record(record), level, budget_ms=200, clock=clock)
    assert max(readings) <= 0.2 and decision.ms <= 200
    assert decision.nodes <= _CHECK_INTERVAL * len(readings)
    assert decision.reason in {"search", "solved"}


def test_the_clock_is_checked_inside_the_search() -> None:
    # A fake clock that jumps 10 ms per reading: the search must stop after a few readings,
    # whatever the real time, and still return a legal move.
    ticks = iter(range(10**9))
    decision = think(Position.from_record(MIDGAME), Level.MASTER, budget_ms=100, clock=lambda: next(ticks) / 100)
    assert decision.peg in Position.from_record(MIDGAME).legal_pegs()
    assert decision.nodes < 20 * 256


def test_master_at_a_small_budget_beats_random_play() -> None:
    master, random_player = Player(Level.MASTER, budget_ms=60), Player(None)
    for index in range(4):
        assert play_game(master, random_player, index=index, seed=index).winner == "a"


def test_medium_beats_beginner() -> None:
    medium, beginner = Player(Level.MEDIUM), Player(Level.BEGINNER)
    results = [play_game(medium, beginner, index=index, seed=index).winner for index in range(4)]
    assert results.count("a") >= 3
