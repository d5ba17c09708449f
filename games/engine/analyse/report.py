"""What an analysis says, as the server stores it: each position's evaluation, each move's mark, the
key moments, and their JSON (``to_json``; the format is documented in ``docs/analysis.md``)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from games.engine.values import Colour, Peg

ANALYSIS_VERSION = 2
"""Bump whenever a change to the engine can change an analysis, so old analyses can be recomputed."""


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
