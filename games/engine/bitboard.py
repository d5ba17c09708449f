"""Raw-integer geometry of the 4x4x4 board: the layer the CPU search runs on.

A bitboard is a plain ``int`` holding one bit per cell; each colour has its own.
The bit of a cell is ``16 * (level - 1) + 4 * row + column`` where ``row`` is the peg's
digit minus one and ``column`` is its letter (``a`` .. ``d`` -> 0 .. 3). So the low four bits of
a bit index name the peg (the *peg index*, ``4 * row + column``) and the high two bits the level.

Nothing here validates its arguments: callers pass in-range indices and bitboards that
respect gravity. The typed, validating API lives in :mod:`games.engine.position`.
"""

from __future__ import annotations

SIZE = 4
"""Pegs per row and column, and beads per peg."""

CELLS = SIZE**3
"""Number of cells (and of bits used in a bitboard): 64."""

FULL = (1 << CELLS) - 1
"""Mask of all 64 cells."""

LEVEL_MASKS: tuple[int, ...] = tuple(0xFFFF << (16 * level) for level in range(SIZE))
"""``LEVEL_MASKS[k]`` holds the 16 cells of level ``k + 1``."""

BOTTOM = LEVEL_MASKS[0]
"""Cells of level 1: where a bead lands on an empty peg."""

TOP = LEVEL_MASKS[-1]
"""Cells of level 4: a peg is full exactly when its level-4 cell is occupied."""

PEG_MASKS: tuple[int, ...] = tuple(0x0001_0001_0001_0001 << peg for peg in range(SIZE * SIZE))
"""``PEG_MASKS[p]`` holds the four cells (levels 1..4) of the peg with peg index ``p``."""

# The 13 directions: one of each pair {d, -d} of non-zero steps in {-1, 0, 1}^3.
DIRECTIONS: tuple[tuple[int, int, int], ...] = tuple(
    (dl, dr, dc) for dl in (-1, 0, 1) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dl, dr, dc) > (0, 0, 0)
)
"""The 13 line directions as ``(d_level, d_row, d_column)`` steps."""
assert len(DIRECTIONS) == 13


def bit_index(level: int, row: int, column: int) -> int:
    """Bit index of a cell from its 0-based ``level``, ``row`` and ``column`` (no range check)."""
    return 16 * level + 4 * row + column


def _line_cells(level: int, row: int, column: int, step: tuple[int, int, int]) -> tuple[int, ...] | None:
    """The four bit indices from a starting cell along ``step``, or None if the walk leaves the board."""
    cells = []
    for k in range(SIZE):
        coords = (level + k * step[0], row + k * step[1], column + k * step[2])
        if not all(0 <= x < SIZE for x in coords):
            return None
        cells.append(bit_index(*coords))
    return tuple(cells)


def _find_lines() -> tuple[int, ...]:
    """Every winning line as a mask, by brute force over all start cells and the 13 directions.

    Lines are ordered by their cells' bit indices sorted ascending: a fixed, documented order
    the position layer relies on only through :func:`winning_line_at`.
    """
    found: set[tuple[int, ...]] = set()
    for level in range(SIZE):
        for row in range(SIZE):
            for column in range(SIZE):
                for step in DIRECTIONS:
                    cells = _line_cells(level, row, column, step)
                    if cells is not None:
                        found.add(tuple(sorted(cells)))
    return tuple(sum(1 << bit for bit in cells) for cells in sorted(found))


LINES: tuple[int, ...] = _find_lines()
"""The 76 winning lines, each a mask of four cells."""
if len(LINES) != 76:  # pragma: no cover - the geometry is fixed; this guards against a broken edit
    raise AssertionError(f"expected 76 winning lines, found {len(LINES)}")


def _peg_name_key(bit: int) -> tuple[int, int, int]:
    """Sort key of a cell in peg-name order (column letter, row digit, level)."""
    return (bit & 3, (bit >> 2) & 3, bit >> 4)


def _line_key(line: int) -> list[tuple[int, int, int]]:
    """Sort key of a line: its cells in peg-name order, compared cell by cell."""
    return sorted(_peg_name_key(bit) for bit in iter_bits(line))


def iter_bits(mask: int) -> list[int]:
    """Bit indices set in ``mask``, ascending."""
    bits = []
    while mask:
        low = mask & -mask
        bits.append(low.bit_length() - 1)
        mask ^= low
    return bits


LINES_THROUGH: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted((line for line in LINES if line >> bit & 1), key=_line_key)) for bit in range(CELLS)
)
"""``LINES_THROUGH[b]``: masks of the lines through cell ``b`` (between 4 and 7 of them).

Within each entry the lines are ordered by their cells in peg-name order (``a1`` < ``a2`` < ... <
``d4``, then level), so that when one bead completes several lines at once the reported line is
the one whose cells sort first.
"""


def drop_bit(occupied: int, peg: int) -> int:
    """The single-bit mask of the cell a bead dropped on peg index ``peg`` lands on; 0 if the peg is full.

    ``occupied`` is the union of both colours' bitboards and must respect gravity.
    """
    empty = PEG_MASKS[peg] & ~occupied
    return empty & -empty


def legal_pegs_mask(occupied: int) -> int:
    """A 16-bit mask with bit ``p`` set when peg index ``p`` still has room."""
    return (~occupied & TOP) >> 48


def playable_cells(occupied: int) -> int:
    """Mask of the cells a bead can land on this move: the lowest empty cell of every non-full peg."""
    return ((occupied << 16) | BOTTOM) & ~occupied & FULL


def is_win_at(bits: int, bit: int) -> bool:
    """True when ``bits`` (one colour's bitboard) holds a complete line through cell ``bit``.

    Call it right after setting ``bit`` in ``bits``: only the lines through that cell can have
    been completed by the drop.
    """
    # A plain loop: any() over a generator costs about twice as much on this hot path.
    for line in LINES_THROUGH[bit]:  # noqa: SIM110
        if bits & line == line:
            return True
    return False


def winning_line_at(bits: int, bit: int) -> int:
    """The mask of the first complete line of ``bits`` through cell ``bit`` (see ``LINES_THROUGH``), or 0."""
    for line in LINES_THROUGH[bit]:
        if bits & line == line:
            return line
    return 0


def has_win(bits: int) -> bool:
    """True when ``bits`` holds any complete line (a full scan of the 76 lines)."""
    return any(bits & line == line for line in LINES)


def threat_cells(own: int, occupied: int) -> int:
    """Mask of the empty cells that would complete a line of ``own`` (the threat cells).

    ``own`` is one colour's bitboard and ``occupied`` the union of both. Gravity is ignored:
    intersect with :func:`playable_cells` for the threats that can be filled this move.
    """
    cells = 0
    for line in LINES:
        missing = line & ~own
        if missing and not missing & (missing - 1) and not missing & occupied:
            cells |= missing
    return cells
