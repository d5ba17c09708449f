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

The parts, by concern: :mod:`~games.engine.analyse.report` (what an analysis says, and its JSON),
:mod:`~games.engine.analyse.proving` (one position: its proofs, its search, the budget),
:mod:`~games.engine.analyse.game` (the walk over a game, the marks and the key moments) and
:mod:`~games.engine.analyse.cli` (the command line).
"""

from __future__ import annotations

from games.engine.analyse.cli import main
from games.engine.analyse.game import SLOWER_WIN_PLIES, OverBudget, analyse_game, analyse_position
from games.engine.analyse.proving import (
    DEFAULT_NODE_BUDGET,
    DEFAULT_TIME_BUDGET_S,
    LOSS_PLIES,
    SCORE_LIMIT,
    SEARCH_DEPTH,
    SOLVE_EMPTIES,
    WIN_PLIES,
)
from games.engine.analyse.report import ANALYSIS_VERSION, Analysis, EvalKind, Evaluation, Mark, Moment, PlyAnalysis

__all__ = [
    "ANALYSIS_VERSION", "DEFAULT_NODE_BUDGET", "DEFAULT_TIME_BUDGET_S", "LOSS_PLIES", "SCORE_LIMIT", "SEARCH_DEPTH",
    "SLOWER_WIN_PLIES", "SOLVE_EMPTIES", "WIN_PLIES", "Analysis", "EvalKind", "Evaluation", "Mark", "Moment",
    "OverBudget", "PlyAnalysis", "analyse_game", "analyse_position", "main",
]
