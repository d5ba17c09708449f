"""Precomputed tables and bit tricks for the CPU search (raw ints; see :mod:`games.engine.bitboard`).

Everything here is built once at import from the engine's geometry, so the search never loops over
all 76 lines: a move only touches the 4 to 7 lines through the cell it fills.
"""

from __future__ import annotations

from games.engine.bitboard import CELLS, FULL, LEVEL_MASKS, LINES_THROUGH
from games.engine.symmetry import INVERSE, PEG_PERMUTATIONS

REST: tuple[tuple[int, ...], ...] = tuple(
    tuple(line & ~(1 << bit) for line in LINES_THROUGH[bit]) for bit in range(CELLS)
)
"""``REST[b]``: for each line through cell ``b``, the mask of its other three cells."""

ODD_LEVELS = LEVEL_MASKS[0] | LEVEL_MASKS[2]
"""Cells of levels 1 and 3: the threats that parity favours for Red (who moves first)."""

EVEN_LEVELS = LEVEL_MASKS[1] | LEVEL_MASKS[3]
"""Cells of levels 2 and 4: the threats that parity favours for Yellow."""

LINE_COUNT: tuple[int, ...] = tuple(len(LINES_THROUGH[bit]) for bit in range(CELLS))
"""Number of winning lines through each cell (4 to 7): a static measure of how useful a cell is."""

MAPS_BACK: tuple[tuple[int, ...], ...] = tuple(PEG_PERMUTATIONS[INVERSE[s]] for s in range(8))
"""``MAPS_BACK[s][p]``: the original peg index of peg index ``p`` of the image under symmetry ``s``."""

# The engine's per-level delta swaps, widened to 128 bits so that one int holding both colours
# (``own << 64 | opp``) is transformed in one go: every swap stays inside a 16-bit level, so the
# two halves never mix.
_WIDE = (1 << 64) | 1
_EVEN_COLUMNS = 0x5555_5555_5555_5555 * _WIDE
_LOW_COLUMN_PAIRS = 0x3333_3333_3333_3333 * _WIDE
_EVEN_ROWS = 0x0F0F_0F0F_0F0F_0F0F * _WIDE
_LOW_ROW_PAIRS = 0x00FF_00FF_00FF_00FF * _WIDE
_BLOCK_SWAP = 0x00CC_00CC_00CC_00CC * _WIDE
_IN_BLOCK_SWAP = 0x0A0A_0A0A_0A0A_0A0A * _WIDE


def _flip_columns(x: int) -> int:
    x = ((x >> 1) & _EVEN_COLUMNS) | ((x & _EVEN_COLUMNS) << 1)
    return ((x >> 2) & _LOW_COLUMN_PAIRS) | ((x & _LOW_COLUMN_PAIRS) << 2)


def _flip_rows(x: int) -> int:
    x = ((x >> 4) & _EVEN_ROWS) | ((x & _EVEN_ROWS) << 4)
    return ((x >> 8) & _LOW_ROW_PAIRS) | ((x & _LOW_ROW_PAIRS) << 8)


def _transpose(x: int) -> int:
    swap = ((x >> 6) ^ x) & _BLOCK_SWAP
    x ^= swap ^ (swap << 6)
    swap = ((x >> 3) ^ x) & _IN_BLOCK_SWAP
    return x ^ swap ^ (swap << 3)


def canonical(own: int, opp: int) -> tuple[int, int]:
    """``(key, symmetry)``: the smallest of the 8 images of ``own << 64 | opp`` and the symmetry giving it.

    Same key and symmetry as :func:`games.engine.symmetry.canonical_form` called with ``(own, opp)``
    (ties go to the smallest symmetry value), at a fraction of the cost.
    """
    x = (own << 64) | opp
    best, symmetry = x, 0
    image = _flip_columns(x)
    if image < best:
        best, symmetry = image, 1
    rows = _flip_rows(x)
    if rows < best:
        best, symmetry = rows, 2
    image = _flip_columns(rows)
    if image < best:
        best, symmetry = image, 3
    turned = _transpose(x)
    if turned < best:
        best, symmetry = turned, 4
    image = _flip_columns(turned)
    if image < best:
        best, symmetry = image, 5
    rows = _flip_rows(turned)
    if rows < best:
        best, symmetry = rows, 6
    image = _flip_columns(rows)
    if image < best:
        best, symmetry = image, 7
    return best, symmetry


def playable(occupied: int) -> int:
    """The lowest empty cell of every peg with room (same as :func:`games.engine.bitboard.playable_cells`)."""
    return ((occupied << 16) | LEVEL_MASKS[0]) & ~occupied & FULL


def above(cells: int) -> int:
    """Every cell strictly above one of ``cells`` on the same peg."""
    return ((cells << 16) | (cells << 32) | (cells << 48)) & FULL
