"""The analysis of one position: what is proved about it and, failing a proof, what the search says.

Each position gets the guaranteed proofs (a forced win within :data:`WIN_PLIES` plies, else a forced loss
within :data:`LOSS_PLIES`), then, within the budget, the exact solution of an ending (at most
:data:`SOLVE_EMPTIES` empty cells); a position no proof settles gets the fixed :data:`SEARCH_DEPTH`-ply
search (the CPU's, with Master's evaluation), and a win or loss that search reports is checked by a
proof. The walk over a game and the marks are :mod:`games.engine.analyse.game`'s.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from games.engine.analyse.report import EvalKind, Evaluation
from games.engine.cpu.evaluation import INFINITY, MATE_BOUND, WIN, Node, Weights, safe_moves
from games.engine.cpu.search import Searcher
from games.engine.position import Position
from games.engine.proof import Board, ProofBudgetSpent, Prover
from games.engine.values import Peg

WIN_PLIES = 9
"""Every forced win within this many plies is found (the guaranteed proof depth)."""

LOSS_PLIES = 10
"""Every forced loss within this many plies is found (the opponent's wins within ``WIN_PLIES``)."""

SEARCH_DEPTH = 5
"""Depth in plies of the heuristic search for the positions no proof settles."""

SOLVE_EMPTIES = 26
"""Try to solve a position exactly (within the node budget) once at most this many cells are empty."""

DEFAULT_NODE_BUDGET = 150_000
"""Proof nodes each position may spend on the optional work (see the module docstring)."""

DEFAULT_TIME_BUDGET_S = 20.0
"""Wall-clock seconds after which no optional proof is started or continued."""

SCORE_LIMIT = 10_000
"""Heuristic scores are clamped to +/-SCORE_LIMIT (a win or loss the search saw but no proof confirmed)."""

_UNBOUNDED = 1 << 10
"""A proof horizon meaning "at any depth"."""

_T = TypeVar("_T")

_WEIGHTS = Weights()
"""Master's evaluation."""


@dataclass(slots=True)
class Known:
    """Everything proved about one position so far (filled in while the analysis runs)."""

    kind: EvalKind
    plies: int | None = None
    move: Peg | None = None
    score: int | None = None
    depth: int | None = None
    no_win: int = 0
    """Proved: the side to move cannot force a win within this many plies."""
    no_loss: int = 0
    """Proved: the side to move cannot be forced to lose within this many plies."""
    values: dict[Peg, int] = field(default_factory=dict)
    """The heuristic search's value of each move it searched (``heuristic`` only)."""
    nodes: int = 0

    def evaluation(self) -> Evaluation:
        return Evaluation(self.kind, self.plies, self.move, self.score, self.depth, self.nodes)


class Budget:
    """The optional proofs' allowance: a number of nodes per position and one wall-clock deadline."""

    def __init__(self, prover: Prover, nodes: int | None, deadline: float | None) -> None:
        self.prover = prover
        self.nodes = nodes
        self.deadline = deadline
        self._left: dict[int, int] = {}

    def run(self, index: int, proof: Callable[[], _T]) -> _T | None:
        """``proof()`` on position ``index``'s allowance, or None when the allowance or time ran out."""
        prover = self.prover
        left = None if self.nodes is None else self._left.get(index, self.nodes)
        if (left is not None and left <= 0) or (self.deadline is not None and prover.clock() >= self.deadline):
            return None
        start = prover.nodes
        prover.max_nodes = None if left is None else start + left
        prover.deadline = self.deadline
        try:
            return proof()
        except ProofBudgetSpent:
            return None
        finally:
            prover.max_nodes = prover.deadline = None
            if left is not None:
                self._left[index] = left - (prover.nodes - start)


class Evaluator:
    """What is proved (or searched) about each position of a list, one prover and one budget for them all: the
    positions evaluated last first find the proofs of those after them in the prover's tables."""

    def __init__(
        self,
        positions: list[Position],
        node_budget: int | None,
        time_budget_s: float | None,
        clock: Callable[[], float],
    ) -> None:
        self.positions = positions
        self.prover = Prover(clock=clock)
        deadline = None if time_budget_s is None else clock() + time_budget_s
        self.budget = Budget(self.prover, node_budget, deadline)
        self.boards = [None if p.to_move is None else Board.of(p) for p in positions]
        self.known: list[Known] = [Known(EvalKind.FINAL) for _ in positions]

    def evaluation(self, index: int) -> Evaluation:
        """Evaluate position ``index`` (filling ``self.known[index]``) and return its evaluation."""
        before = self.prover.nodes
        known = self._evaluate(index)
        known.nodes += self.prover.nodes - before
        self.known[index] = known
        return known.evaluation()

    # -- proofs ----------------------------------------------------------------------------------

    def _wins(self, board: Board, depth: int) -> bool:
        return self.prover.wins(board.own, board.opp, board.t_own, board.t_opp, depth)

    def _loses(self, board: Board, depth: int) -> bool:
        return self.prover.loses(board.own, board.opp, board.t_own, board.t_opp, depth)

    def _shortest_win(self, board: Board, start: int, stop: int) -> int | None:
        """The smallest odd depth in ``start..stop`` within which ``board`` is won, or None."""
        for depth in range(start | 1, stop + 1, 2):
            if self._wins(board, depth):
                return depth
        return None

    def _shortest_loss(self, board: Board, start: int, stop: int) -> int | None:
        """The smallest even depth in ``start..stop`` within which ``board`` is lost, or None."""
        for depth in range(start + (start & 1), stop + 1, 2):
            if self._loses(board, depth):
                return depth
        return None

    # -- evaluations -----------------------------------------------------------------------------

    def _evaluate(self, index: int) -> Known:
        board = self.boards[index]
        if board is None:
            return Known(EvalKind.FINAL)
        known = self._prove(index, board)
        return known if known.kind is not EvalKind.HEURISTIC else self._search(index, board, known)

    def _prove(self, index: int, board: Board) -> Known:
        """The guaranteed proofs, then (within the budget) the exact solution of an ending."""
        win = self._shortest_win(board, 1, WIN_PLIES)
        if win is not None:
            return self._won(board, win)
        loss = self._shortest_loss(board, 2, LOSS_PLIES)
        if loss is not None:
            return self._lost(board, loss)
        empties = board.empties
        if empties <= WIN_PLIES:
            return self._drawn(board)  # no win and no loss before the board is full
        known = Known(EvalKind.HEURISTIC, no_win=WIN_PLIES, no_loss=LOSS_PLIES)
        if empties <= SOLVE_EMPTIES:
            self.budget.run(index, lambda: self._solve(board, known))
        return known

    def _solve(self, board: Board, known: Known) -> bool:
        """Settle ``board`` completely, recording every step in ``known`` as it is proved."""
        empties = board.empties
        if self._wins(board, empties):
            known.no_loss = _UNBOUNDED
            win = self._shortest_win(board, known.no_win + 2, empties)
            assert win is not None
            self._replace(known, self._won(board, win))
            return True
        known.no_win = _UNBOUNDED
        if self._loses(board, empties):
            loss = self._shortest_loss(board, known.no_loss + 2, empties)
            assert loss is not None
            self._replace(known, self._lost(board, loss))
            return True
        self._replace(known, self._drawn(board))
        return True

    @staticmethod
    def _replace(known: Known, proved: Known) -> None:
        nodes = known.nodes
        for name in ("kind", "plies", "move", "score", "depth", "no_win", "no_loss", "values"):
            setattr(known, name, getattr(proved, name))
        known.nodes = nodes

    def _won(self, board: Board, plies: int) -> Known:
        cell = self.prover.winning_move(board.own, board.opp, board.t_own, board.t_opp, plies)
        return Known(
            EvalKind.FORCED_WIN,
            plies,
            peg_of(cell),
            depth=plies,
            no_win=plies - 2,
            no_loss=_UNBOUNDED,
        )

    def _lost(self, board: Board, plies: int) -> Known:
        # The longest defence: a move after which the opponent needs all of plies - 1 to win, i.e. a
        # refutation of "lost within plies - 2" (proved false on the way to ``plies``).
        move: Peg | None
        if plies == 2:
            # Lost at once whatever happens: block one of the threats, as a player would.
            blocks = board.playable() & board.t_opp
            move = Peg.from_index(((blocks & -blocks).bit_length() - 1) & 15) if blocks else board.legal()[0]
        else:
            move = peg_of(self.prover.escape(board.own, board.opp, board.t_own, board.t_opp, plies - 2))
        return Known(EvalKind.FORCED_LOSS, plies, move, depth=plies, no_win=_UNBOUNDED, no_loss=plies - 1)

    def _drawn(self, board: Board) -> Known:
        empties = board.empties
        cell = self.prover.escape(board.own, board.opp, board.t_own, board.t_opp, empties)
        return Known(
            EvalKind.DRAW,
            empties,
            peg_of(cell),
            depth=empties,
            no_win=_UNBOUNDED,
            no_loss=_UNBOUNDED,
        )

    def _search(self, index: int, board: Board, known: Known) -> Known:
        """The fixed-depth heuristic search over the moves that do not lose at once."""
        node = Node.from_bits(board.own, board.opp, _WEIGHTS)
        cells, _ = safe_moves(node)
        searcher = Searcher(_WEIGHTS, deadline=math.inf)
        for peg in board.legal():
            low = board.landing(peg)
            if low & cells:
                child = node.child(low.bit_length() - 1, _WEIGHTS)
                args = (child.own, child.opp, child.t_own, child.t_opp, child.score, SEARCH_DEPTH - 1)
                known.values[peg] = -searcher.negamax(*args, -INFINITY, INFINITY, 1)
        known.depth = SEARCH_DEPTH
        known.nodes += searcher.nodes
        best = max(known.values.values())
        if abs(best) > MATE_BOUND:
            proved = self._verify(index, board, best)
            if proved is not None:
                proved.nodes = known.nodes
                return proved
        # Recommend the best-valued move not proved to lose within the horizon; one exists, since
        # the position is not lost within LOSS_PLIES.
        for peg in sorted(known.values, key=lambda peg: -known.values[peg]):
            if not self._wins(board.child(peg), WIN_PLIES):
                known.move, known.score = peg, _clamp(known.values[peg])
                break
        return known

    def _verify(self, index: int, board: Board, value: int) -> Known | None:
        """Prove a win or loss the heuristic search reported past the proof horizon (within the budget)."""
        if value > 0:
            plies = WIN - value
            win = self.budget.run(index, lambda: self._shortest_win(board, WIN_PLIES + 2, plies))
            return None if win is None else self._won(board, win)
        plies = value + WIN
        loss = self.budget.run(index, lambda: self._shortest_loss(board, LOSS_PLIES + 2, plies))
        return None if loss is None else self._lost(board, loss)


def peg_of(cell: int | None) -> Peg | None:
    """The peg of a cell the prover names (None: it named none)."""
    return None if cell is None else Peg.from_index(cell & 15)


def _clamp(score: int) -> int:
    """A heuristic score with the search's unproved wins and losses pulled to +/-``SCORE_LIMIT``."""
    return max(-SCORE_LIMIT, min(SCORE_LIMIT, score))
