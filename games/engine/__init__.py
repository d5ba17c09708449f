"""The rules of 3D Four in a Row (4x4x4, gravity drops). Standard library only.

Two layers:

* the typed API: :class:`Position` (immutable, validating) and the value types
  :class:`Peg`, :class:`Cell`, :class:`Colour`, :class:`Status`, :class:`Outcome`, :class:`Threat`,
  the errors :class:`EngineError` (``BadPeg``, ``PegFull``, ``GameOver``) and :class:`Symmetry`;
* raw-integer helpers for search code (:mod:`games.engine.bitboard`, :mod:`games.engine.symmetry`):
  bitboards are ints with bit ``16 * (level - 1) + 4 * row + column``.

Peg-name order (``a1, a2, a3, a4, b1, ..., d4``) is the order of ``Peg`` iteration, of sorted pegs
and of every list of pegs the engine returns.
"""

from games.engine.bitboard import (
    BOTTOM,
    CELLS,
    DIRECTIONS,
    FULL,
    LEVEL_MASKS,
    LINES,
    LINES_THROUGH,
    PEG_MASKS,
    TOP,
    drop_bit,
    has_win,
    is_win_at,
    iter_bits,
    legal_pegs_mask,
    playable_cells,
    threat_cells,
    winning_line_at,
)
from games.engine.errors import BadPeg, EngineError
from games.engine.position import GameOver, PegFull, Position, transform_position
from games.engine.symmetry import (
    COMPOSE,
    INVERSE,
    PEG_PERMUTATIONS,
    Symmetry,
    canonical_form,
    canonical_key,
    images,
    transform_bits,
)
from games.engine.values import Cell, Colour, Outcome, Peg, Status, Threat

__all__ = [
    "BOTTOM",
    "CELLS",
    "COMPOSE",
    "DIRECTIONS",
    "FULL",
    "INVERSE",
    "LEVEL_MASKS",
    "LINES",
    "LINES_THROUGH",
    "PEG_MASKS",
    "PEG_PERMUTATIONS",
    "TOP",
    "BadPeg",
    "Cell",
    "Colour",
    "EngineError",
    "GameOver",
    "Outcome",
    "Peg",
    "PegFull",
    "Position",
    "Status",
    "Symmetry",
    "Threat",
    "canonical_form",
    "canonical_key",
    "drop_bit",
    "has_win",
    "images",
    "is_win_at",
    "iter_bits",
    "legal_pegs_mask",
    "playable_cells",
    "threat_cells",
    "transform_bits",
    "transform_position",
    "winning_line_at",
]
