"""The analysis board's verdicts (``games.engine.verdicts``) against the independent brute force, on
positions with few empty cells, and its CPU budget on the empty board."""

from __future__ import annotations

import random

from games.engine import Peg, Position
from games.engine.verdicts import Verdict, board_verdict
from tests.games.engine.brute_force import BruteForce
from tests.records import DRAWN_RECORD


def brute_move(brute: BruteForce, mover: int, other: int, cell: int, empties: int) -> tuple[str, int | None]:
    """A move's verdict and distance by exhaustive search: the shortest loss or win, else a draw."""
    if brute.completes(mover, cell):
        return "win", 1
    mover |= 1 << cell
    for depth in range(1, empties):
        if depth % 2 and brute.wins_within(other, mover, depth):
            return "loss", depth + 1
        if depth % 2 == 0 and brute.loses_within(other, mover, depth):
            return "win", depth + 1
    return "draw", None


def positions(count: int, *, empties: range, seed: int = 33) -> list[str]:
    """Records with few empty cells: ends of the drawn game and of random games, the game still on and the
    side to move without a win at once."""
    rng = random.Random(seed)
    found = [" ".join(DRAWN_RECORD.split()[:64 - e]) for e in empties]
    while len(found) < count:
        position = Position.initial()
        target = 64 - rng.choice(list(empties))
        while position.ply < target and position.outcome is None:
            position = position.play(rng.choice(position.legal_pegs()))
        colour = position.to_move
        if colour is not None and not any(t.playable for t in position.threats(colour)):
            found.append(position.record())  # no win at once: every move is searched
    return found


def test_every_move_verdict_and_the_proved_line_match_the_brute_force():
    brute = BruteForce()
    checked = {"win": 0, "loss": 0, "draw": 0}
    for record in positions(20, empties=range(6, 12)):
        position = Position.from_record(record)
        answer = board_verdict(position, budget_s=60)
        mover, other = BruteForce.board(record)
        empties = 64 - position.ply
        expected = {}
        for cell in BruteForce.moves(mover, other):
            expected[BruteForce.peg_of(cell)] = brute_move(brute, mover, other, cell, empties)
        got = {str(m.peg): (m.verdict.value, m.plies) for m in answer.moves}
        if ("win", 1) in expected.values():  # the other moves are not searched
            assert got == {peg: v if v == ("win", 1) else ("unknown", None) for peg, v in expected.items()}
            assert (answer.verdict, answer.plies) == (Verdict.WIN, 1)
            continue
        assert answer.complete and not answer.stopped
        assert got == expected, record
        for verdict, _ in expected.values():
            checked[verdict] += 1
        wins = [plies for verdict, plies in expected.values() if verdict == "win" and plies is not None]
        if answer.verdict in (Verdict.WIN, Verdict.LOSS):  # the proved line plays out to its end
            replayed = position
            for peg in answer.best:
                replayed = replayed.play(peg)
            assert replayed.outcome is not None and len(answer.best) == answer.plies, record
            assert (replayed.outcome.winner == position.to_move) == (answer.verdict is Verdict.WIN)
        if wins:
            assert (answer.verdict, answer.plies) == (Verdict.WIN, min(wins))
            assert str(answer.best[0]) in [peg for peg, (v, p) in expected.items() if v == "win" and p == min(wins)]
        elif any(verdict == "draw" for verdict, _ in expected.values()):
            assert (answer.verdict, answer.plies) == (Verdict.DRAW, None)
        else:
            losses = [plies or 0 for _, plies in expected.values()]
            assert (answer.verdict, answer.plies) == (Verdict.LOSS, max(losses))
    assert all(checked.values()), checked  # wins, losses and draws were all compared


def test_the_empty_board_answers_within_its_cpu_budget():
    answer = board_verdict(Position.initial(), budget_s=0.3)
    assert answer.stopped and not answer.complete
    assert answer.verdict is Verdict.UNKNOWN and answer.plies is None
    assert len(answer.best) == 1 and isinstance(answer.best[0], Peg)
    assert answer.spent_s <= 0.3  # measured by the code itself, on this thread's CPU clock
    assert answer.depth >= 2


def test_a_finished_game_is_its_result():
    position = Position.from_record("a1 b1 a1 b1 a1 b1 a1")
    answer = board_verdict(position, budget_s=0.1)
    assert (answer.to_move, answer.verdict, answer.plies, answer.moves, answer.best) == (None, Verdict.LOSS, 0, (), ())


def test_a_win_at_once_is_not_searched_further():
    answer = board_verdict(Position.from_record("a1 a4 b1 b4 c1 c4"), budget_s=5)  # Red plays d1 and wins
    assert (answer.verdict, answer.plies, [str(p) for p in answer.best]) == (Verdict.WIN, 1, ["d1"])
    assert not answer.stopped and answer.spent_s < 0.5
