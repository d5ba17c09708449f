"""Domain value types: pegs, cells, colours, status, outcomes and threats.

All are immutable (enums or frozen dataclasses); parse with ``from_*``, render with ``str()``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import cast

from games.engine.bitboard import SIZE
from games.engine.errors import BadPeg


class Peg(Enum):
    """One of the 16 pegs, named like a chess square: column letter ``a``..``d``, row digit ``1``..``4``.

    Iterating over ``Peg`` and sorting pegs both use *peg-name order*: ``a1, a2, a3, a4, b1, ... d4``
    (column letter first, then row digit). This order is used everywhere a list of pegs is shown.

    Attributes:
        column: 0..3 for ``a``..``d``.
        row: 0..3 for ``1``..``4``.
        index: ``4 * row + column`` (0..15), the peg's bit offset within a level of a bitboard.
            Note that index order (a1, b1, c1, d1, a2, ...) differs from peg-name order.
    """

    A1 = "a1"
    A2 = "a2"
    A3 = "a3"
    A4 = "a4"
    B1 = "b1"
    B2 = "b2"
    B3 = "b3"
    B4 = "b4"
    C1 = "c1"
    C2 = "c2"
    C3 = "c3"
    C4 = "c4"
    D1 = "d1"
    D2 = "d2"
    D3 = "d3"
    D4 = "d4"

    column: int
    row: int
    index: int

    def __init__(self, name: str) -> None:
        self.column = ord(name[0]) - ord("a")
        self.row = int(name[1]) - 1
        self.index = SIZE * self.row + self.column

    @classmethod
    def from_name(cls, name: str) -> Peg:
        """The peg called ``name`` (exactly ``a1`` .. ``d4``, lower case).

        Raises:
            BadPeg: ``name`` is not a peg.
        """
        try:
            return _PEG_BY_NAME[name]
        except (KeyError, TypeError):
            raise BadPeg(str(name)) from None

    @classmethod
    def from_index(cls, index: int) -> Peg:
        """The peg with peg index ``index`` (0..15, ``4 * row + column``); IndexError otherwise."""
        if not 0 <= index < SIZE * SIZE:
            raise IndexError(f"peg index out of range: {index}")
        return _PEG_BY_INDEX[index]

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Peg):
            return NotImplemented
        return (self.column, self.row) < (other.column, other.row)

    def __str__(self) -> str:
        return cast(str, self.value)


_PEG_BY_NAME: dict[str, Peg] = {peg.value: peg for peg in Peg}
_PEG_BY_INDEX: tuple[Peg, ...] = tuple(sorted(Peg, key=lambda peg: peg.index))


@dataclass(frozen=True, order=True, slots=True)
class Cell:
    """One of the 64 cells: a peg and a level (1 = bottom .. 4 = top).

    Cells sort by peg (peg-name order) then level. ``str(cell)`` is ``"b3:2"`` (peg ``b3``, level 2).
    """

    peg: Peg
    level: int

    def __post_init__(self) -> None:
        if not 1 <= self.level <= SIZE:
            raise ValueError(f"level must be 1..{SIZE}, not {self.level!r}")

    @property
    def bit(self) -> int:
        """Bit index of the cell in a bitboard: ``16 * (level - 1) + peg.index``."""
        return 16 * (self.level - 1) + self.peg.index

    @classmethod
    def from_bit(cls, bit: int) -> Cell:
        """The cell with bit index ``bit`` (0..63); IndexError otherwise."""
        if not 0 <= bit < SIZE**3:
            raise IndexError(f"bit index out of range: {bit}")
        return _CELL_BY_BIT[bit]

    @classmethod
    def from_name(cls, name: str) -> Cell:
        """Parse ``"b3:2"`` (peg, colon, level).

        Raises:
            BadPeg: the peg part is not a peg.
            ValueError: the level part is not 1..4.
        """
        peg_name, _, level = name.partition(":")
        peg = Peg.from_name(peg_name)
        if level not in {"1", "2", "3", "4"}:
            raise ValueError(f"{name!r} is not a cell: expected a peg, ':' and a level 1..4")
        return cls(peg, int(level))

    def __str__(self) -> str:
        return f"{self.peg}:{self.level}"


_CELL_BY_BIT: tuple[Cell, ...] = tuple(Cell(Peg.from_index(bit % 16), bit // 16 + 1) for bit in range(SIZE**3))


class Colour(StrEnum):
    """A bead colour. Red always makes the first move."""

    RED = "red"
    YELLOW = "yellow"

    @property
    def other(self) -> Colour:
        """The opposing colour."""
        return Colour.YELLOW if self is Colour.RED else Colour.RED

    @classmethod
    def from_name(cls, name: str) -> Colour:
        """``"red"`` or ``"yellow"``; ValueError otherwise."""
        return cls(name)


class Status(StrEnum):
    """Where a game stands. ``str()`` gives the wire name: ``playing``, ``won``, ``drawn``."""

    PLAYING = "playing"
    WON = "won"
    DRAWN = "drawn"

    @property
    def is_finished(self) -> bool:
        """True once no further move may be made."""
        return self is not Status.PLAYING


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended."""

    winner: Colour | None
    """The winning colour, or None for a draw."""

    line: tuple[Cell, Cell, Cell, Cell] | None = None
    """The four cells of the winning line in order along the line (which is also sorted cell order),
    or None for a draw. When one bead completes several lines, the line whose cells sort first is
    reported. A win decided off the board (e.g. a resignation, recorded outside the engine) has None."""

    @property
    def status(self) -> Status:
        """``Status.WON`` or ``Status.DRAWN``."""
        return Status.DRAWN if self.winner is None else Status.WON

    def __str__(self) -> str:
        return "draw" if self.winner is None else f"{self.winner} won"


@dataclass(frozen=True, slots=True)
class Threat:
    """An empty cell that would complete a line of ``colour``.

    ``playable`` is True when the cell is the lowest empty cell of its peg, i.e. it could be
    filled by the next bead dropped on that peg.
    """

    colour: Colour
    cell: Cell
    playable: bool

    def __str__(self) -> str:
        kind = "playable" if self.playable else "not yet playable"
        return f"{self.colour} threat at {self.cell} ({kind})"
