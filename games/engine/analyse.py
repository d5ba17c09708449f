"""Post-game analysis ("where did I lose?"): what the engine can say about every position of a game.

``analyse_game(record)`` returns an :class:`Analysis`; ``Analysis.to_json()`` is the JSON the
server stores; ``python -m games.engine.analyse "a1 b2 ..."`` prints it. The format, and what each
label and mark claims, are documented in ``docs/analysis.md``.

Every position is labelled with what was *proved* about it when something was, and with a heuristic
score otherwise:

* the guaranteed part, always done: a proof search (:mod:`games.engine.proof`) for a forced win of
  the side to move within :data:`WIN_PLIES` plies and, failing that, a forced loss within
  :data:`LOSS_PLIES`; a fixed :data:`SEARCH_DEPTH`-ply alpha-beta search (the CPU's, with Master's
  evaluation) for the positions that stay unproved;
* the optional part, bounded by the budget: solving the ending exactly once at most
  :data:`SOLVE_EMPTIES` cells are empty (wins and losses of any length, and draws), the proofs a
  mark needs beyond the guaranteed ones (only-move checks, longer wins) and checking wins the
  heuristic search reports.

Marks are derived from those proofs only; a heuristic score never produces ``missed_win`` or
``blunder``. Results are deterministic (the budget counts nodes) unless the wall-clock
``time_budget_s`` runs out first, which only drops optional proofs.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TextIO, TypeVar

from games.engine.cpu.search import INFINITY, MATE_BOUND, WIN, Node, Searcher, Weights, safe_moves
from games.engine.errors import EngineError
from games.engine.position import Position
from games.engine.proof import Board, ProofBudgetSpent, Prover
from games.engine.values import Colour, Peg

ANALYSIS_VERSION = 2
"""Bump whenever a change to the engine can change an analysis, so old analyses can be recomputed."""

WIN_PLIES = 9
"""Every forced win within this many plies is found (the guaranteed proof depth)."""

LOSS_PLIES = 10
"""Every forced loss within this many plies is found (the opponent's wins within ``WIN_PLIES``)."""

SLOWER_WIN_PLIES = 4
"""A move that keeps a proved win but makes it at least this many plies longer is marked ``slower_win``."""

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


class EvalKind(StrEnum):
    """What is known about a position, from the side to move's point of view."""

    FORCED_WIN = "forced_win"
    FORCED_LOSS = "forced_loss"
    DRAW = "draw"
    HEURISTIC = "heuristic"
    FINAL = "final"


class Mark(StrEnum):
    """The verdict on a move (see docs/analysis.md for what each one claims)."""

    MISSED_WIN = "missed_win"
    SLOWER_WIN = "slower_win"
    BLUNDER = "blunder"
    ONLY_MOVE = "only_move"
    BEST = "best"


@dataclass(frozen=True, slots=True)
class Evaluation:
    """What the engine knows about one position, for the side to move."""

    kind: EvalKind
    plies: int | None = None
    """Plies to the end of the game with best play (forced results and draws), else None."""
    move: Peg | None = None
    """A winning move (shortest win), the longest defence, a drawing move or the search's choice."""
    score: int | None = None
    """The heuristic score for the side to move (``heuristic`` only)."""
    depth: int | None = None
    """The depth of the search behind the label: the heuristic search's, or the proof's (plies)."""
    nodes: int = 0
    """Nodes visited for this position (proofs and search, marks included)."""

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind.value,
            "plies": self.plies,
            "move": None if self.move is None else self.move.value,
            "score": self.score,
            "depth": self.depth,
            "nodes": self.nodes,
        }


@dataclass(frozen=True, slots=True)
class PlyAnalysis:
    """One position of the game (before move ``ply + 1``) and the move played from it."""

    ply: int
    to_move: Colour | None
    eval: Evaluation
    played: Peg | None
    mark: Mark | None

    def to_json(self) -> dict[str, object]:
        return {
            "ply": self.ply,
            "to_move": None if self.to_move is None else self.to_move.value,
            "eval": self.eval.to_json(),
            "played": None if self.played is None else self.played.value,
            "mark": None if self.mark is None else self.mark.value,
        }


@dataclass(frozen=True, slots=True)
class Moment:
    """A key moment: a missed win, a slower win or a blunder, with a sentence a player can read."""

    ply: int
    move_number: int
    colour: Colour
    peg: Peg
    kind: Mark
    text: str
    better: Peg | None

    def to_json(self) -> dict[str, object]:
        return {
            "ply": self.ply,
            "move_number": self.move_number,
            "colour": self.colour.value,
            "peg": self.peg.value,
            "kind": self.kind.value,
            "text": self.text,
            "better": None if self.better is None else self.better.value,
        }


@dataclass(frozen=True, slots=True)
class Analysis:
    """The analysis of a whole game: one entry per position (``len(plies) == moves + 1``)."""

    version: int
    plies: tuple[PlyAnalysis, ...]
    moments: tuple[Moment, ...]

    def to_json(self) -> dict[str, object]:
        """The JSON-ready dict (key order is part of the format)."""
        return {
            "version": self.version,
            "plies": [entry.to_json() for entry in self.plies],
            "moments": [moment.to_json() for moment in self.moments],
        }


@dataclass(slots=True)
class _Known:
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


class _Budget:
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


class _Analyser:
    """One game's analysis, from the last position back to the first, so that the proofs of each
    position find those of the positions after it in the tables."""

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
        self.budget = _Budget(self.prover, node_budget, deadline)
        self.boards = [None if p.to_move is None else Board.of(p) for p in positions]
        self.known: list[_Known] = [_Known(EvalKind.FINAL) for _ in positions]

    def evaluation(self, index: int) -> Evaluation:
        """Evaluate position ``index`` (filling ``self.known[index]``) and return its evaluation."""
        before = self.prover.nodes
        known = self._evaluate(index)
        known.nodes += self.prover.nodes - before
        self.known[index] = known
        return known.evaluation()

    def run(self) -> Analysis:
        # Last position first, each move marked as soon as both its positions are known: when the
        # time budget runs short, it is the opening that goes without optional proofs.
        marks: list[Mark | None] = [None] * len(self.positions)
        moments: list[Moment] = []
        for index in reversed(range(len(self.positions))):
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

    def _evaluate(self, index: int) -> _Known:
        board = self.boards[index]
        if board is None:
            return _Known(EvalKind.FINAL)
        known = self._prove(index, board)
        return known if known.kind is not EvalKind.HEURISTIC else self._search(index, board, known)

    def _prove(self, index: int, board: Board) -> _Known:
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
        known = _Known(EvalKind.HEURISTIC, no_win=WIN_PLIES, no_loss=LOSS_PLIES)
        if empties <= SOLVE_EMPTIES:
            self.budget.run(index, lambda: self._solve(board, known))
        return known

    def _solve(self, board: Board, known: _Known) -> bool:
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
    def _replace(known: _Known, proved: _Known) -> None:
        nodes = known.nodes
        for name in ("kind", "plies", "move", "score", "depth", "no_win", "no_loss", "values"):
            setattr(known, name, getattr(proved, name))
        known.nodes = nodes

    def _won(self, board: Board, plies: int) -> _Known:
        cell = self.prover.winning_move(board.own, board.opp, board.t_own, board.t_opp, plies)
        return _Known(
            EvalKind.FORCED_WIN,
            plies,
            _peg(cell),
            depth=plies,
            no_win=plies - 2,
            no_loss=_UNBOUNDED,
        )

    def _lost(self, board: Board, plies: int) -> _Known:
        # The longest defence: a move after which the opponent needs all of plies - 1 to win, i.e. a
        # refutation of "lost within plies - 2" (proved false on the way to ``plies``).
        move: Peg | None
        if plies == 2:
            # Lost at once whatever happens: block one of the threats, as a player would.
            blocks = board.playable() & board.t_opp
            move = Peg.from_index(((blocks & -blocks).bit_length() - 1) & 15) if blocks else board.legal()[0]
        else:
            move = _peg(self.prover.escape(board.own, board.opp, board.t_own, board.t_opp, plies - 2))
        return _Known(EvalKind.FORCED_LOSS, plies, move, depth=plies, no_win=_UNBOUNDED, no_loss=plies - 1)

    def _drawn(self, board: Board) -> _Known:
        empties = board.empties
        cell = self.prover.escape(board.own, board.opp, board.t_own, board.t_opp, empties)
        return _Known(
            EvalKind.DRAW,
            empties,
            _peg(cell),
            depth=empties,
            no_win=_UNBOUNDED,
            no_loss=_UNBOUNDED,
        )

    def _search(self, index: int, board: Board, known: _Known) -> _Known:
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

    def _verify(self, index: int, board: Board, value: int) -> _Known | None:
        """Prove a win or loss the heuristic search reported past the proof horizon (within the budget)."""
        if value > 0:
            plies = WIN - value
            win = self.budget.run(index, lambda: self._shortest_win(board, WIN_PLIES + 2, plies))
            return None if win is None else self._won(board, win)
        plies = value + WIN
        loss = self.budget.run(index, lambda: self._shortest_loss(board, LOSS_PLIES + 2, plies))
        return None if loss is None else self._lost(board, loss)

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
        return _peg(cell)


_MOMENTS = frozenset({Mark.MISSED_WIN, Mark.SLOWER_WIN, Mark.BLUNDER})
"""The marks that make a key moment."""


def _peg(cell: int | None) -> Peg | None:
    return None if cell is None else Peg.from_index(cell & 15)


def _clamp(score: int) -> int:
    """A heuristic score with the search's unproved wins and losses pulled to +/-``SCORE_LIMIT``."""
    return max(-SCORE_LIMIT, min(SCORE_LIMIT, score))


# -- entry points ------------------------------------------------------------------------------------


def analyse_game(
    record: str,
    *,
    node_budget: int | None = DEFAULT_NODE_BUDGET,
    time_budget_s: float | None = DEFAULT_TIME_BUDGET_S,
    clock: Callable[[], float] = time.perf_counter,
) -> Analysis:
    """Analyse the game ``record`` (peg names separated by whitespace, Red first).

    The guaranteed proofs and the fixed-depth search always run to completion. ``node_budget``
    bounds the optional proofs per position (None: no bound) and ``time_budget_s`` the wall-clock
    time after which no optional proof runs (None: no bound), measured with ``clock`` (seconds).
    With the defaults a 40-ply game takes well under 30 s on one core (``docs/benchmarks.md``).

    Raises:
        EngineError: ``record`` breaks a rule (its ``ply`` says which move).
    """
    positions = [Position.initial()]
    for peg in Position.from_record(record).moves:  # parsed first: a bad record raises before any work
        positions.append(positions[-1].play(peg))
    return _Analyser(positions, node_budget, time_budget_s, clock).run()


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
    return _Analyser([position], node_budget, time_budget_s, clock).evaluation(0)


def main(argv: Sequence[str] | None = None, *, stdout: TextIO | None = None) -> int:
    """``python -m games.engine.analyse "a1 b2 ..."``: print the analysis as JSON.

    Returns the exit status: 0, or 2 when the record breaks a rule (the error goes out as JSON too).
    """
    parser = argparse.ArgumentParser(
        prog="python -m games.engine.analyse",
        description="Analyse a 3D Four in a Row game and print the analysis as JSON (docs/analysis.md).",
    )
    parser.add_argument("record", nargs="*", help='the moves, e.g. "a1 b2 c3" (Red first); arguments are joined')
    parser.add_argument("--nodes", type=int, default=DEFAULT_NODE_BUDGET, help="optional proof nodes per position")
    parser.add_argument(
        "--seconds", type=float, default=DEFAULT_TIME_BUDGET_S, help="wall-clock budget of the optional proofs"
    )
    parser.add_argument("--indent", type=int, default=None, help="pretty-print with this indent")
    args = parser.parse_args(argv)
    sink = sys.stdout if stdout is None else stdout
    record = " ".join(args.record)
    try:
        analysis = analyse_game(record, node_budget=args.nodes, time_budget_s=args.seconds)
    except EngineError as error:
        sink.write(json.dumps({"error": {"code": error.code, "ply": error.ply, "message": error.message}}) + "\n")
        return 2
    sink.write(json.dumps(analysis.to_json(), indent=args.indent) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
