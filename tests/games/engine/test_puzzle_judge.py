"""Puzzles in the engine: judging a solver's moves, the longest defence and mining, checked against the
independent brute force (``brute_force.py``). The positions are the shipped pool's (plain JSON lines)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.engine import PegFull, Position
from games.engine.puzzle import (
    AttemptError,
    Verdict,
    find_puzzles,
    judge_attempt,
    longest_defence,
    winning_line,
)
from games.engine.values import Peg
from tests.games.engine.brute_force import BruteForce

POOL = Path(__file__).resolve().parents[3] / "puzzles" / "data" / "pool.jsonl"
ENTRIES = [json.loads(line) for line in POOL.read_text().splitlines() if line.strip()]


def of_length(plies: int) -> list[tuple[str, int]]:
    return [(e["record"], e["plies"]) for e in ENTRIES if e["plies"] == plies]


def bf_shortest(record: str, limit: int = 9) -> int | None:
    brute = BruteForce()
    return brute.shortest_win(*brute.board(record), limit)


def bf_keeps(record: str, peg: str, within: int) -> bool:
    """Brute force: the side to move, playing ``peg``, still wins within ``within`` plies (this move counted)."""
    brute = BruteForce()
    mover, other = brute.board(record)
    cell = next(c for c in brute.moves(mover, other) if brute.peg_of(c) == peg)
    return brute.wins_after(mover, other, cell, within)


def solver_moves(line: tuple[Peg, ...]) -> list[Peg]:
    return list(line[::2])


@pytest.mark.parametrize("plies", [3, 5, 7])
def test_the_engines_line_solves_and_every_reply_is_a_longest_defence(plies):
    record, _ = of_length(plies)[0]
    line = winning_line(Position.from_record(record), plies=plies)
    assert len(line) == plies
    moves = solver_moves(line)
    for count in range(1, len(moves)):
        judgement = judge_attempt(Position.from_record(record), plies=plies, moves=moves[:count])
        assert judgement.verdict is Verdict.CONTINUE
        assert judgement.reply == line[2 * count - 1]
        # The reply lasts longest: no defence leaves the solver a slower win than the reply does.
        before_reply = " ".join([record, *(p.value for p in line[: 2 * count - 1])]).strip()
        after_reply = f"{before_reply} {judgement.reply}"
        left = plies - 2 * count
        assert bf_shortest(after_reply) == left
        for peg in Position.from_record(before_reply).legal_pegs():
            assert bf_shortest(f"{before_reply} {peg}") <= left
    final = judge_attempt(Position.from_record(record), plies=plies, moves=moves)
    assert final.verdict is Verdict.SOLVED and final.solution == line
    assert len(final.four) == 4 and line[-1] in {cell.peg for cell in final.four}


def test_another_winning_move_solves():
    for record, plies in of_length(3) + of_length(5):
        position = Position.from_record(record)
        first = winning_line(position, plies=plies)[0]
        others = [p for p in position.legal_pegs() if p != first and bf_keeps(record, p.value, plies)]
        if not others:
            continue
        moves = [others[0]]
        while True:
            judgement = judge_attempt(position, plies=plies, moves=moves)
            if judgement.verdict is Verdict.SOLVED:
                return
            assert judgement.verdict is Verdict.CONTINUE
            now = position
            for peg in judgement.line:
                now = now.play(peg)
            moves.append(winning_line(now, plies=plies - len(judgement.line))[0])
    pytest.fail("no puzzle of the pool has a second winning first move")


def test_a_move_that_keeps_a_longer_win_fails():
    for record, plies in of_length(3) + of_length(5):
        position = Position.from_record(record)
        for peg in position.legal_pegs():
            if bf_keeps(record, peg.value, plies) or not bf_keeps(record, peg.value, plies + 4):
                continue
            judgement = judge_attempt(position, plies=plies, moves=[peg])
            assert judgement.verdict is Verdict.FAILED
            assert bf_keeps(record, judgement.solution[0].value, plies)
            return
    pytest.fail("no puzzle of the pool has a move keeping only a slower win")


def test_a_losing_move_fails_with_a_refutation_and_a_winning_move():
    record, plies = of_length(5)[0]
    position = Position.from_record(record)
    peg = next(p for p in position.legal_pegs() if not bf_keeps(record, p.value, 9))
    judgement = judge_attempt(position, plies=plies, moves=[peg])
    assert judgement.verdict is Verdict.FAILED
    assert judgement.refutation and judgement.reply is None
    Position.from_record(f"{record} {peg} {judgement.refutation[0]}")  # legal
    assert bf_keeps(record, judgement.solution[0].value, plies)
    assert len(judgement.solution) == plies


def test_attempts_that_are_not_one_are_refused():
    record, plies = of_length(3)[0]
    position = Position.from_record(record)
    line = winning_line(position, plies=plies)
    with pytest.raises(AttemptError):
        judge_attempt(position, plies=plies, moves=[])
    with pytest.raises(AttemptError):
        judge_attempt(position, plies=plies, moves=[*solver_moves(line), line[0]])
    full = next((peg for peg in Peg if position.height(peg) == 4), None)
    if full is not None:
        with pytest.raises(PegFull):
            judge_attempt(position, plies=plies, moves=[full])


def test_longest_defence_refuses_a_position_that_is_not_lost():
    with pytest.raises(ValueError):
        longest_defence(Position.from_record("a1 b1"), within=8)


def test_mining_a_game_finds_its_proved_wins_once_per_length():
    # Red builds a1 b1 c1 and wins on d1: before the last Red move it is a win in 1 (not a puzzle).
    assert list(find_puzzles("a1 a4 b1 b4 c1 d3 d1")) == []
    record, plies = of_length(7)[0]
    found = list(find_puzzles(record))
    assert found[-1].record == record and found[-1].plies == plies
    for puzzle in found:
        assert bf_shortest(puzzle.record) == puzzle.plies
