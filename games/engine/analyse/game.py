"""The analysis of a whole game: each position evaluated from the last back to the first, each move
marked from its two positions' evaluations, and the key moments told in a sentence.

A mark is derived from proofs only (:mod:`games.engine.analyse.proving`); a heuristic score never
produces ``missed_win`` or ``blunder``. The proofs a mark needs beyond the guaranteed ones (an only
move, a longer win, a safer move) are spent from the position's own budget.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from games.engine.analyse.proving import (
    DEFAULT_NODE_BUDGET,
    DEFAULT_TIME_BUDGET_S,
    SOLVE_EMPTIES,
    WIN_PLIES,
    Evaluator,
    peg_of,
)
from games.engine.analyse.report import ANALYSIS_VERSION, Analysis, EvalKind, Evaluation, Mark, Moment, PlyAnalysis
from games.engine.cpu.evaluation import INFINITY
from games.engine.position import Position
from games.engine.proof import Board
from games.engine.values import Peg

SLOWER_WIN_PLIES = 4
"""A move that keeps a proved win but makes it at least this many plies longer is marked ``slower_win``."""


class OverBudget(Exception):
    """The analysis of a game stopped at its CPU budget (``cpu_budget_s`` of :func:`analyse_game`): nothing
    of it is claimed."""


class GameAnalyser(Evaluator):
    """One game's analysis, from the last position back to the first, so that the proofs of each
    position find those of the positions after it in the tables."""

    def run(self, *, cpu_budget_s: float | None = None, cpu_clock: Callable[[], float] = time.thread_time) -> Analysis:
        """The analysis; ``cpu_budget_s``: CPU seconds (of ``cpu_clock``) the whole of it may take, looked at
        before each position (None: no bound).

        Raises:
            OverBudget: the CPU budget ran out before every position was done.
        """
        # Last position first, each move marked as soon as both its positions are known: when the
        # time budget runs short, it is the opening that goes without optional proofs.
        marks: list[Mark | None] = [None] * len(self.positions)
        moments: list[Moment] = []
        stop = None if cpu_budget_s is None else cpu_clock() + cpu_budget_s
        for index in reversed(range(len(self.positions))):
            if stop is not None and cpu_clock() >= stop:
                raise OverBudget(f"{cpu_budget_s:g} s of CPU spent with {index + 1} position(s) left")
            self.evaluation(index)
            if index + 1 < len(self.positions):
                marks[index], moment = self._marked(index)
                if moment is not None:
                    moments.append(moment)
        plies = []
        for index, position in enumerate(self.positions):
            played = self.positions[index + 1].moves[-1] if index + 1 < len(self.positions) else None
            plies.append(PlyAnalysis(index, position.to_move, self.known[index].evaluation(), played, marks[index]))
        return Analysis(ANALYSIS_VERSION, tuple(plies), tuple(reversed(moments)))

    def _marked(self, index: int) -> tuple[Mark | None, Moment | None]:
        """The mark of the move played from position ``index`` and its moment, if it is one; the proof
        nodes spent count for that position."""
        before = self.prover.nodes
        mark = self._mark(index)
        moment = self._moment(index, mark) if mark in _MOMENTS else None
        self.known[index].nodes += self.prover.nodes - before
        return mark, moment

    # -- marks -----------------------------------------------------------------------------------

    def _mark(self, index: int) -> Mark | None:
        board = self.boards[index]
        assert board is not None
        if len(board.legal()) < 2:
            return None  # no choice, nothing to judge
        before, after = self.known[index], self.known[index + 1]
        played = self.positions[index + 1].moves[-1]
        if after.kind is EvalKind.FINAL:
            return Mark.BEST  # the move won on the spot (a last-cell draw leaves no choice)
        if before.kind is EvalKind.FORCED_WIN:
            assert before.plies is not None
            if after.kind is not EvalKind.FORCED_LOSS:
                return Mark.MISSED_WIN if self._not_lost(index, index + 1, before.plies + 1) else None
            assert after.plies is not None
            if after.plies + 1 - before.plies >= SLOWER_WIN_PLIES:
                return Mark.SLOWER_WIN  # the win is kept, proved, but far later than it could be
        elif after.kind is EvalKind.FORCED_WIN:
            assert after.plies is not None
            if before.kind is EvalKind.FORCED_LOSS:
                return Mark.BEST if before.plies is not None and after.plies == before.plies - 1 else None
            return Mark.BLUNDER if self._not_lost(index, index, after.plies + 1) else None
        if before.kind is EvalKind.FORCED_LOSS:
            return None  # every move loses; the longest defence is judged above, when proved
        if self._only_move(index, board, played):
            return Mark.ONLY_MOVE
        if before.kind is EvalKind.FORCED_WIN or after.kind is EvalKind.FORCED_LOSS:
            return Mark.BEST  # keeps (or reaches) a proved win
        if before.kind is EvalKind.DRAW:
            return Mark.BEST if after.kind is EvalKind.DRAW else None
        if before.kind is EvalKind.HEURISTIC and before.move is not None and played in before.values:
            return Mark.BEST if before.values[played] >= before.values[before.move] else None
        return None

    def _not_lost(self, spender: int, index: int, plies: int) -> bool:
        """Whether position ``index`` is proved not lost within ``plies`` (proving it on ``spender``'s budget)."""
        known = self.known[index]
        if known.no_loss >= plies:
            return True
        board = self.boards[index]
        if board is None or known.kind is not EvalKind.HEURISTIC:
            return False
        if self.budget.run(spender, lambda: self._loses(board, plies)) is False:
            known.no_loss = plies
            return True
        return False

    def _only_move(self, index: int, board: Board, played: Peg) -> bool:
        """Whether every move but ``played`` is proved to lose (``played`` itself is not proved to)."""
        values = self.known[index].values
        depth = board.empties - 1 if board.empties <= SOLVE_EMPTIES else WIN_PLIES
        # The likeliest good alternatives first: one that does not lose settles the question.
        others = sorted((peg for peg in board.legal() if peg != played), key=lambda peg: -values.get(peg, -INFINITY))
        for peg in others:
            if board.wins_at_once(peg):
                return False
            child = board.child(peg)
            if not self.budget.run(index, lambda child=child: self._wins(child, depth)):  # type: ignore[misc]
                return False
        return True

    # -- moments ---------------------------------------------------------------------------------

    def _moment(self, index: int, mark: Mark) -> Moment:
        colour = self.positions[index].to_move
        assert colour is not None
        peg = self.positions[index + 1].moves[-1]
        before, after = self.known[index], self.known[index + 1]
        head = f"Move {index + 1}, {colour.value.capitalize()} {peg}: "
        opponent = colour.other.value.capitalize()
        if mark is Mark.MISSED_WIN:
            better = before.move
            text = f"{head}missed a forced win in {before.plies} ({better} first)"
            if after.kind is EvalKind.FORCED_WIN:
                text += f"; after this {opponent} wins by force in {after.plies}"
            elif after.kind is EvalKind.DRAW:
                text += "; after this the game is a draw with best play"
        elif mark is Mark.SLOWER_WIN:
            assert after.plies is not None
            better = before.move
            text = f"{head}still wins by force, but in {after.plies + 1} instead of {before.plies} ({better} first)"
        else:
            assert after.plies is not None
            text = f"{head}after this {opponent} wins by force in {after.plies}"
            better = self._safer(index, after.plies)
        return Moment(index, index + 1, colour, peg, mark, text, better)

    def _safer(self, index: int, plies: int) -> Peg | None:
        """A move of position ``index`` proved not to let the opponent win within ``plies``."""
        board = self.boards[index]
        assert board is not None
        recommended = self.known[index].move
        if recommended is not None and self.known[index].kind is not EvalKind.FORCED_LOSS:
            child = board.child(recommended)
            if self.budget.run(index, lambda: self._wins(child, plies)) is False:
                return recommended
        cell = self.budget.run(
            index, lambda: self.prover.escape(board.own, board.opp, board.t_own, board.t_opp, plies + 1)
        )
        return peg_of(cell)


_MOMENTS = frozenset({Mark.MISSED_WIN, Mark.SLOWER_WIN, Mark.BLUNDER})
"""The marks that make a key moment."""


def analyse_game(
    record: str,
    *,
    node_budget: int | None = DEFAULT_NODE_BUDGET,
    time_budget_s: float | None = DEFAULT_TIME_BUDGET_S,
    clock: Callable[[], float] = time.perf_counter,
    cpu_budget_s: float | None = None,
    cpu_clock: Callable[[], float] = time.thread_time,
) -> Analysis:
    """Analyse the game ``record`` (peg names separated by whitespace, Red first).

    The guaranteed proofs and the fixed-depth search run to completion for every position analysed.
    ``node_budget`` bounds the optional proofs per position (None: no bound) and ``time_budget_s`` the
    wall-clock time after which no optional proof runs (None: no bound), measured with ``clock`` (seconds).
    ``cpu_budget_s`` bounds the whole analysis, the guaranteed part included, in seconds of ``cpu_clock``
    (this thread's CPU time): looked at before each position, it stops the analysis with ``OverBudget``
    once spent (None: no bound; 0: before any work). With the defaults a 40-ply game takes well under 30 s
    on one core (``docs/benchmarks.md``).

    Raises:
        EngineError: ``record`` breaks a rule (its ``ply`` says which move).
        OverBudget: ``cpu_budget_s`` ran out before the analysis was done.
    """
    positions = [Position.initial()]
    for peg in Position.from_record(record).moves:  # parsed first: a bad record raises before any work
        positions.append(positions[-1].play(peg))
    return GameAnalyser(positions, node_budget, time_budget_s, clock).run(cpu_budget_s=cpu_budget_s,
                                                                           cpu_clock=cpu_clock)


def analyse_position(
    record: str,
    *,
    node_budget: int | None = DEFAULT_NODE_BUDGET,
    time_budget_s: float | None = DEFAULT_TIME_BUDGET_S,
    clock: Callable[[], float] = time.perf_counter,
) -> Evaluation:
    """The evaluation of the position after ``record`` alone, as :func:`analyse_game` labels it.

    The same guaranteed and optional work as for a position of a game, without the tables that
    the game's later positions would have filled (so it can cost a little more, never less).

    Raises:
        EngineError: ``record`` breaks a rule.
    """
    position = Position.from_record(record)
    return Evaluator([position], node_budget, time_budget_s, clock).evaluation(0)
