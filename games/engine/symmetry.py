"""The 8 symmetries of the 4x4 grid of pegs (rotations and reflections; levels never change).

Every symmetry is a composition, in this order, of three involutions of the grid:
``TRANSPOSE`` (row <-> column, mirror about the a1-d4 diagonal), a row flip (digit ``1`` <-> ``4``)
and a column flip (letter ``a`` <-> ``d``). A symmetry's value is ``4 * transpose + 2 * flip_rows +
flip_columns``, so the enum doubles as an index into the tables below.

Bitboards are transformed with a handful of shift-and-mask "delta swaps" that act on all four
levels at once, which in Python is far cheaper than moving 64 bits one at a time.

Canonical keys and mapping moves back: ``canonical_form(red, yellow)`` returns ``(key, s)`` where
``key`` encodes the image of the position under ``s``. A move ``m`` found for the canonical
position (e.g. in an opening book) is ``s.inverse.apply_peg(m)`` in the original position, and a
move ``m`` of the original is ``s.apply_peg(m)`` in the canonical one.
"""

from __future__ import annotations

from enum import IntEnum

from games.engine.bitboard import SIZE
from games.engine.values import Cell, Peg

_REPEAT = 0x0001_0001_0001_0001  # copies a 16-bit level pattern onto all four levels
_EVEN_COLUMNS = 0x5555 * _REPEAT
_LOW_COLUMN_PAIRS = 0x3333 * _REPEAT
_EVEN_ROWS = 0x0F0F * _REPEAT
_LOW_ROW_PAIRS = 0x00FF * _REPEAT
_BLOCK_SWAP = 0x00CC * _REPEAT  # cells (row 0-1, column 2-3), partners 6 bits up
_IN_BLOCK_SWAP = 0x0A0A * _REPEAT  # cells (even row, odd column), partners 3 bits up


def flip_columns_bits(bits: int) -> int:
    """Mirror every level left-right: column ``a`` <-> ``d``, ``b`` <-> ``c``."""
    bits = ((bits >> 1) & _EVEN_COLUMNS) | ((bits & _EVEN_COLUMNS) << 1)
    return ((bits >> 2) & _LOW_COLUMN_PAIRS) | ((bits & _LOW_COLUMN_PAIRS) << 2)


def flip_rows_bits(bits: int) -> int:
    """Mirror every level front-back: row ``1`` <-> ``4``, ``2`` <-> ``3``."""
    bits = ((bits >> 4) & _EVEN_ROWS) | ((bits & _EVEN_ROWS) << 4)
    return ((bits >> 8) & _LOW_ROW_PAIRS) | ((bits & _LOW_ROW_PAIRS) << 8)


def transpose_bits(bits: int) -> int:
    """Mirror every level about the a1-d4 diagonal: the cell at (row, column) moves to (column, row)."""
    swap = ((bits >> 6) ^ bits) & _BLOCK_SWAP
    bits ^= swap ^ (swap << 6)
    swap = ((bits >> 3) ^ bits) & _IN_BLOCK_SWAP
    return bits ^ swap ^ (swap << 3)


def images(bits: int) -> tuple[int, int, int, int, int, int, int, int]:
    """The 8 images of a bitboard, indexed by symmetry value (``images(b)[s] == transform_bits(s, b)``)."""
    out: list[int] = []
    for base in (bits, transpose_bits(bits)):
        for rows in (base, flip_rows_bits(base)):
            out.append(rows)
            out.append(flip_columns_bits(rows))
    return (out[0], out[1], out[2], out[3], out[4], out[5], out[6], out[7])


def transform_bits(symmetry: int, bits: int) -> int:
    """The image of a bitboard under the symmetry with value ``symmetry`` (0..7)."""
    if symmetry & 4:
        bits = transpose_bits(bits)
    if symmetry & 2:
        bits = flip_rows_bits(bits)
    if symmetry & 1:
        bits = flip_columns_bits(bits)
    return bits


def _map_peg_index(symmetry: int, index: int) -> int:
    row, column = divmod(index, SIZE)
    if symmetry & 4:
        row, column = column, row
    if symmetry & 2:
        row = SIZE - 1 - row
    if symmetry & 1:
        column = SIZE - 1 - column
    return SIZE * row + column


PEG_PERMUTATIONS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_map_peg_index(symmetry, index) for index in range(SIZE * SIZE)) for symmetry in range(8)
)
"""``PEG_PERMUTATIONS[s][p]``: the peg index that peg index ``p`` maps to under symmetry ``s``."""


def _compose_table() -> tuple[tuple[int, ...], ...]:
    by_permutation = {permutation: symmetry for symmetry, permutation in enumerate(PEG_PERMUTATIONS)}
    return tuple(
        tuple(
            by_permutation[tuple(PEG_PERMUTATIONS[second][PEG_PERMUTATIONS[first][p]] for p in range(16))]
            for second in range(8)
        )
        for first in range(8)
    )


COMPOSE: tuple[tuple[int, ...], ...] = _compose_table()
"""``COMPOSE[a][b]``: the symmetry equal to applying ``a`` first, then ``b``."""

INVERSE: tuple[int, ...] = tuple(row.index(0) for row in COMPOSE)
"""``INVERSE[s]``: the symmetry that undoes ``s``."""


class Symmetry(IntEnum):
    """A rotation or reflection of the grid of pegs, seen from above with ``a1`` at the bottom left."""

    IDENTITY = 0
    FLIP_COLUMNS = 1
    """Mirror left-right: ``a1`` -> ``d1``."""
    FLIP_ROWS = 2
    """Mirror front-back: ``a1`` -> ``a4``."""
    ROTATE_180 = 3
    """Half turn: ``a1`` -> ``d4``."""
    TRANSPOSE = 4
    """Mirror about the a1-d4 diagonal: ``b1`` -> ``a2``."""
    ROTATE_90 = 5
    """Quarter turn anticlockwise: ``a1`` -> ``d1`` -> ``d4`` -> ``a4``."""
    ROTATE_270 = 6
    """Quarter turn clockwise: ``a1`` -> ``a4`` -> ``d4`` -> ``d1``."""
    ANTI_TRANSPOSE = 7
    """Mirror about the a4-d1 diagonal: ``a1`` -> ``d4``, ``a4`` fixed."""

    @property
    def inverse(self) -> Symmetry:
        """The symmetry that undoes this one."""
        return Symmetry(INVERSE[self])

    def then(self, other: Symmetry) -> Symmetry:
        """The symmetry equal to applying ``self`` first, then ``other``."""
        return Symmetry(COMPOSE[self][other])

    def apply_peg(self, peg: Peg) -> Peg:
        """The image of ``peg``."""
        return Peg.from_index(PEG_PERMUTATIONS[self][peg.index])

    def apply_cell(self, cell: Cell) -> Cell:
        """The image of ``cell`` (same level)."""
        return Cell(self.apply_peg(cell.peg), cell.level)

    def apply_bits(self, bits: int) -> int:
        """The image of a bitboard."""
        return transform_bits(self, bits)


def canonical_form(red: int, yellow: int) -> tuple[int, Symmetry]:
    """The canonical key of a position given as two bitboards, and a symmetry that produces it.

    The key is ``(red' << 64) | yellow'`` minimised over the 8 images ``(red', yellow')``, so two
    positions get the same key exactly when one is a symmetric image of the other. When several
    symmetries reach the minimum (a symmetric position), the one with the smallest value is returned.
    """
    red_images = images(red)
    yellow_images = images(yellow)
    best_key = (red_images[0] << 64) | yellow_images[0]
    best = 0
    for symmetry in range(1, 8):
        key = (red_images[symmetry] << 64) | yellow_images[symmetry]
        if key < best_key:
            best_key, best = key, symmetry
    return best_key, Symmetry(best)


def canonical_key(red: int, yellow: int) -> int:
    """The canonical key of a position given as two bitboards (see :func:`canonical_form`)."""
    return canonical_form(red, yellow)[0]
