"""Rule violations, each with a stable machine ``code`` and a ``message`` a player can read."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.engine.values import Outcome, Peg


class EngineError(ValueError):
    """Base of every rule violation the engine reports.

    Attributes:
        code: stable machine-readable identifier (``bad_peg``, ``peg_full``, ``game_over``).
        message: one sentence, ending with a period, that can be shown to a player.
        ply: 0-based index of the offending move in a game record, or None when not known.
    """

    code = "engine_error"

    def __init__(self, message: str, *, ply: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.ply = ply


class BadPeg(EngineError):
    """A peg name that is not one of ``a1`` .. ``d4``."""

    code = "bad_peg"

    def __init__(self, name: str, *, ply: int | None = None) -> None:
        super().__init__(f'"{name}" is not a peg.', ply=ply)
        self.name = name


class PegFull(EngineError):
    """A drop on a peg that already holds four beads; the position is unchanged."""

    code = "peg_full"

    def __init__(self, peg: Peg, *, ply: int | None = None) -> None:
        super().__init__(f"Peg {peg} is full: it already holds 4 beads.", ply=ply)
        self.peg = peg


class GameOver(EngineError):
    """A move attempted after the game has been won or drawn."""

    code = "game_over"

    def __init__(self, outcome: Outcome, *, ply: int | None = None) -> None:
        result = "it was a draw" if outcome.winner is None else f"{outcome.winner} won"
        super().__init__(f"The game is over: {result}.", ply=ply)
        self.outcome = outcome
