"""Marks and key moments on hand-made games, each claim checked against the independent brute force.

The games (pegs are column letter + row digit; every bead below lands on level 1 unless stacked):

* ``THREE_IN_A_ROW``: Red builds a1 b1 c1 and threatens d1. Yellow answers c4 instead of blocking
  (a blunder: Red now wins at once), Red answers b2 instead of taking d1 (a missed win, and Yellow,
  holding a4 b4 c4, now wins at once), and Yellow takes d4.
* ``BLOCKED``: the same start, but Yellow blocks d1, the only move that does not lose at once.
* ``DOUBLE_THREAT``: Red holds b1 c1 (row 1) and a2 a3 (column a); a1 would threaten both d1 and
  a4. Yellow's b4 lets Red play it (a blunder), Red does (best: a forced win in 3 kept), Yellow
  blocks a4 (best in a lost position: the longest defence) and Red wins at d1.
* ``DOUBLE_THREAT_MISSED``: the same, but Red plays d4 instead of a1 and Yellow then takes a1.
* ``SLOWER_WIN``: Yellow's b4 leaves Red a win in 1 (d3); Red plays a2 instead, which still wins by
  force, but in 7 (a slower win, 6 plies longer).
* ``A_LITTLE_SLOWER``: Yellow has a win in 1 (d1) and plays b2 instead, which wins in 3: 2 plies
  longer, so still best.
"""

from __future__ import annotations

import functools
import itertools

import pytest

from games.engine.analyse import Analysis, EvalKind, Mark, analyse_game
from games.engine.values import Colour
from tests.games.engine.brute_force import BruteForce
from tests.records import DRAWN_RECORD

# The analysed games and the brute force's memo, computed once a process: one worker.
pytestmark = pytest.mark.xdist_group("analysis_marks")

THREE_IN_A_ROW = "a1 a4 b1 b4 c1 c4 b2 d4"
BLOCKED = "a1 a4 b1 b4 c1 d1"
DOUBLE_THREAT = "b1 c3 c1 d3 a2 c3 a3 b4 a1 a4 d1"
DOUBLE_THREAT_MISSED = "b1 c3 c1 d3 a2 c3 a3 b4 d4 a1"
SLOWER_WIN = "d2 b3 c1 a4 d1 c4 d4 b4 a2"
A_LITTLE_SLOWER = "b4 b1 c4 d4 a3 a1 d4 c1 b4 b2"
BUDGET = 30_000


@functools.cache
def analysed(record: str) -> Analysis:
    return analyse_game(record, node_budget=BUDGET, time_budget_s=None)


@functools.cache
def brute_force() -> BruteForce:
    return BruteForce()


def prefix(record: str, ply: int) -> str:
    return " ".join(record.split()[:ply])


def board_after(record: str, ply: int) -> tuple[int, int]:
    return brute_force().board(prefix(record, ply))


def test_a_move_that_allows_a_win_at_once_is_a_blunder_and_not_taking_a_win_is_a_missed_win() -> None:
    analysis = analysed(THREE_IN_A_ROW)
    brute = brute_force()
    blunder, missed, winning = analysis.plies[5], analysis.plies[6], analysis.plies[7]
    # The facts behind the marks, independently: Yellow was not lost within 2 plies before c4 ...
    assert not brute.loses_within(*board_after(THREE_IN_A_ROW, 5), 2)
    # ... Red wins at once after it, and Yellow wins at once after Red's b2.
    assert brute.shortest_win(*board_after(THREE_IN_A_ROW, 6), 9) == 1
    assert brute.shortest_win(*board_after(THREE_IN_A_ROW, 7), 9) == 1
    assert blunder.mark is Mark.BLUNDER
    assert missed.eval.kind is EvalKind.FORCED_WIN and missed.eval.plies == 1 and str(missed.eval.move) == "d1"
    assert missed.mark is Mark.MISSED_WIN
    assert winning.mark is Mark.BEST and analysis.plies[8].eval.kind is EvalKind.FINAL
    texts = [(moment.ply, moment.kind, moment.text, str(moment.better)) for moment in analysis.moments]
    assert texts == [
        (5, Mark.BLUNDER, "Move 6, Yellow c4: after this Red wins by force in 1", "d1"),
        (
            6,
            Mark.MISSED_WIN,
            "Move 7, Red b2: missed a forced win in 1 (d1 first); after this Yellow wins by force in 1",
            "d1",
        ),
    ]
    assert analysis.moments[0].colour is Colour.YELLOW and analysis.moments[0].move_number == 6


def test_the_only_move_that_does_not_lose_is_marked_only_move() -> None:
    analysis = analysed(BLOCKED)
    brute = brute_force()
    mover, other = board_after(BLOCKED, 5)
    block = next(cell for cell in brute.moves(mover, other) if brute.peg_of(cell) == "d1")
    for cell in brute.moves(mover, other):
        if cell != block:
            # Every other move lets Red complete a1-b1-c1-d1 at once.
            assert brute.wins_within(other, mover | 1 << cell, 1)
    assert analysis.plies[5].mark is Mark.ONLY_MOVE
    assert analysis.plies[6].eval.kind is not EvalKind.FORCED_WIN
    assert analysis.moments == ()


def test_keeping_a_forced_win_and_the_longest_defence_are_best() -> None:
    analysis = analysed(DOUBLE_THREAT)
    brute = brute_force()
    assert brute.shortest_win(*board_after(DOUBLE_THREAT, 8), 9) == 3
    assert brute.loses_within(*board_after(DOUBLE_THREAT, 9), 2)
    assert not brute.loses_within(*board_after(DOUBLE_THREAT, 7), 4)
    before, after = analysis.plies[8], analysis.plies[9]
    assert (before.eval.kind, before.eval.plies, str(before.eval.move)) == (EvalKind.FORCED_WIN, 3, "a1")
    assert before.mark is Mark.BEST
    assert (after.eval.kind, after.eval.plies) == (EvalKind.FORCED_LOSS, 2)
    assert after.mark is Mark.BEST  # a4 blocks one threat: Red needs one more move, the most there is
    assert analysis.plies[10].mark is Mark.BEST  # d1 wins
    assert analysis.plies[7].mark is Mark.BLUNDER
    assert [moment.text for moment in analysis.moments] == ["Move 8, Yellow b4: after this Red wins by force in 3"]
    assert str(analysis.moments[0].better) == "a1"  # taking the key cell first stops both threats


def test_a_forced_win_in_three_not_played_is_a_missed_win() -> None:
    analysis = analysed(DOUBLE_THREAT_MISSED)
    brute = brute_force()
    assert brute.shortest_win(*board_after(DOUBLE_THREAT_MISSED, 8), 9) == 3
    # After d4 Yellow is not lost within 4 plies: no win in 3 (or 5, counting d4) is left for Red.
    assert not brute.loses_within(*board_after(DOUBLE_THREAT_MISSED, 9), 4)
    entry = analysis.plies[8]
    assert entry.mark is Mark.MISSED_WIN
    moment = analysis.moments[-1]
    assert (moment.ply, moment.kind, str(moment.better)) == (8, Mark.MISSED_WIN, "a1")
    assert moment.text == "Move 9, Red d4: missed a forced win in 3 (a1 first)"


def test_keeping_a_win_but_four_or_more_plies_later_is_a_slower_win_with_the_faster_move() -> None:
    analysis = analysed(SLOWER_WIN)
    brute = brute_force()
    assert brute.shortest_win(*board_after(SLOWER_WIN, 8), 9) == 1
    # After a2 Yellow is lost, in 6 plies and not fewer: Red's win now takes 7.
    assert brute.loses_within(*board_after(SLOWER_WIN, 9), 6)
    assert not brute.loses_within(*board_after(SLOWER_WIN, 9), 4)
    entry = analysis.plies[8]
    assert (entry.eval.kind, entry.eval.plies, str(entry.eval.move)) == (EvalKind.FORCED_WIN, 1, "d3")
    assert entry.mark is Mark.SLOWER_WIN
    moment = analysis.moments[-1]
    assert (moment.ply, moment.kind, moment.colour, str(moment.better)) == (8, Mark.SLOWER_WIN, Colour.RED, "d3")
    assert moment.text == "Move 9, Red a2: still wins by force, but in 7 instead of 1 (d3 first)"


def test_a_win_kept_only_two_plies_later_is_still_best() -> None:
    analysis = analysed(A_LITTLE_SLOWER)
    brute = brute_force()
    assert brute.shortest_win(*board_after(A_LITTLE_SLOWER, 9), 9) == 1
    assert brute.loses_within(*board_after(A_LITTLE_SLOWER, 10), 2)
    entry = analysis.plies[9]
    assert (entry.eval.kind, entry.eval.plies) == (EvalKind.FORCED_WIN, 1)
    assert entry.mark is Mark.BEST
    assert all(moment.ply != 9 for moment in analysis.moments)


def test_marks_claim_only_what_was_proved() -> None:
    """Over every analysed game: a missed win needs a proved win before the move, a blunder a proved win
    for the opponent after it; two heuristic positions in a row never give either mark; and every short
    claim behind a mark holds in the brute force."""
    brute = brute_force()
    records = [THREE_IN_A_ROW, BLOCKED, DOUBLE_THREAT, DOUBLE_THREAT_MISSED, SLOWER_WIN, A_LITTLE_SLOWER, DRAWN_RECORD]
    seen = set()
    for record in records:
        plies = analysed(record).plies
        for before, after in itertools.pairwise(plies):
            mark = before.mark
            seen.add(mark)
            if before.eval.kind is EvalKind.HEURISTIC and after.eval.kind is EvalKind.HEURISTIC:
                assert mark not in {Mark.MISSED_WIN, Mark.BLUNDER}
            if mark is Mark.MISSED_WIN:
                assert before.eval.kind is EvalKind.FORCED_WIN and after.eval.kind is not EvalKind.FORCED_LOSS
                assert before.eval.plies is not None
                win = before.eval.plies
                if win <= 5:
                    assert brute.shortest_win(*board_after(record, before.ply), win) == win
                    assert not brute.loses_within(*board_after(record, after.ply), win + 1)
            kept = before.eval.kind is EvalKind.FORCED_WIN and after.eval.kind is EvalKind.FORCED_LOSS
            if kept:  # a win kept: slower_win exactly when it now takes 4 plies or more longer
                assert before.eval.plies is not None and after.eval.plies is not None
                slower = after.eval.plies + 1 - before.eval.plies >= 4
                assert (mark is Mark.SLOWER_WIN) == slower, (record, before.ply)
            else:
                assert mark is not Mark.SLOWER_WIN
            if mark is Mark.BLUNDER:
                assert after.eval.kind is EvalKind.FORCED_WIN and before.eval.kind is not EvalKind.FORCED_LOSS
                assert after.eval.plies is not None
                if after.eval.plies <= 5:
                    assert brute.wins_within(*board_after(record, after.ply), after.eval.plies)
                    assert not brute.loses_within(*board_after(record, before.ply), after.eval.plies + 1)
    assert set(Mark) <= seen


def test_proved_draws_are_labelled_and_the_final_position_is_final() -> None:
    analysis = analysed(DRAWN_RECORD)
    brute = brute_force()
    draws = [entry for entry in analysis.plies if entry.eval.kind is EvalKind.DRAW]
    assert draws
    for entry in draws:
        mover, other = board_after(DRAWN_RECORD, entry.ply)
        empties = 64 - entry.ply
        assert entry.eval.plies == empties
        assert not brute.wins_within(mover, other, empties) and not brute.loses_within(mover, other, empties)
    last = analysis.plies[-1]
    assert (last.ply, last.to_move, last.eval.kind, last.played, last.mark) == (64, None, EvalKind.FINAL, None, None)
