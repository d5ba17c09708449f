"""Rule violations, each with a stable machine ``code`` and a ``message`` a player can read.

The base and the errors of reading values live here, below the values; the errors of playing a move
(``PegFull``, ``GameOver``) live with :class:`~games.engine.position.Position`, which raises them, so the
engine's modules import one another in one direction only.
"""

from __future__ import annotations


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
