"""Board shapes, their cells and directions, and the lines a move resolves.

A board is a flat tuple of cells. On a cube of side n a cell's index is ``x + n*y + n*n*z`` (x: left to
right, y: front to back, z: bottom to top); on the 4x4 square it is ``x + 4*y`` (y: the top row first).
Each direction slides along one axis toward one wall: ``left`` toward x = 0, ``right`` toward the last x;
on the cubes ``backward`` toward y = 0 (the front), ``forward`` toward the back, ``down`` toward z = 0 and
``up`` toward the top; on the square ``up`` toward y = 0 (the top row) and ``down`` toward the bottom row.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from itertools import product

from arcade.engine.errors import BadDirection

Line = tuple[int, ...]
"""The cells of one line of a move, the cell at the wall slid toward first."""


class Direction(StrEnum):
    """A move's direction; its value is its name in the API and the records."""

    LEFT = "left"
    RIGHT = "right"
    UP = "up"
    DOWN = "down"
    FORWARD = "forward"
    BACKWARD = "backward"


class CellKind(StrEnum):
    """A cell's position on the board: how many of its coordinates lie inside rather than on a wall."""

    CORNER = "corner"
    EDGE = "edge"
    FACE = "face"
    CENTRE = "centre"


# (axis, toward the last index?) of each direction, per number of dimensions.
_AXES: dict[int, dict[Direction, tuple[int, bool]]] = {
    2: {Direction.LEFT: (0, False), Direction.RIGHT: (0, True), Direction.UP: (1, False), Direction.DOWN: (1, True)},
    3: {
        Direction.LEFT: (0, False), Direction.RIGHT: (0, True),
        Direction.BACKWARD: (1, False), Direction.FORWARD: (1, True),
        Direction.DOWN: (2, False), Direction.UP: (2, True),
    },
}
_KINDS = {2: (CellKind.CORNER, CellKind.EDGE, CellKind.CENTRE),
          3: (CellKind.CORNER, CellKind.EDGE, CellKind.FACE, CellKind.CENTRE)}


@dataclass(frozen=True, slots=True)
class Shape:
    """A board's shape: a square (``dims`` 2) or a cube (``dims`` 3) of ``side`` cells a side."""

    side: int
    """Cells along each axis (4 on the square, 2 or 3 on the cubes)."""
    dims: int
    """2 for the square, 3 for the cubes."""

    def __post_init__(self) -> None:
        if self.dims not in _AXES or self.side < 2:
            raise ValueError(f"no board of side {self.side} in {self.dims} dimensions")

    @property
    def cells(self) -> int:
        """The number of cells, ``side ** dims``."""
        return int(self.side**self.dims)

    @property
    def extent(self) -> tuple[int, ...]:
        """The shape as the API shows it: ``(4, 4)``, ``(2, 2, 2)`` or ``(3, 3, 3)``."""
        return (self.side,) * self.dims

    @property
    def directions(self) -> tuple[Direction, ...]:
        """The board's directions: four on the square, six on the cubes."""
        return tuple(_AXES[self.dims])

    def direction(self, name: str) -> Direction:
        """The direction called ``name`` on this board.

        Raises:
            BadDirection: not a direction, or ``forward``/``backward`` on the square.
        """
        if name not in _AXES[self.dims]:
            raise BadDirection(name)
        return Direction(name)

    def coords(self, index: int) -> tuple[int, ...]:
        """The coordinates (x, y) or (x, y, z) of the cell ``index``."""
        return tuple(index // self.side**axis % self.side for axis in range(self.dims))

    def index(self, coords: tuple[int, ...]) -> int:
        """The index of the cell at ``coords`` (the inverse of :meth:`coords`)."""
        return sum(value * self.side**axis for axis, value in enumerate(coords))

    def lines(self, direction: Direction) -> tuple[Line, ...]:
        """Every line parallel to ``direction``'s axis, each ordered from the wall slid toward.

        Raises:
            BadDirection: ``direction`` is not one of this board's.
        """
        return _lines(self, self.direction(direction))

    def neighbour_pairs(self) -> tuple[tuple[int, int], ...]:
        """Every pair of cells next to each other along an axis, each pair once."""
        return _neighbour_pairs(self)

    def kind(self, index: int) -> CellKind:
        """The cell's position: corner, edge, face centre (cubes only) or centre."""
        inside = sum(1 for value in self.coords(index) if 0 < value < self.side - 1)
        return _KINDS[self.dims][inside]


@cache
def _lines(shape: Shape, direction: Direction) -> tuple[Line, ...]:
    axis, to_last = _AXES[shape.dims][direction]
    steps = range(shape.side - 1, -1, -1) if to_last else range(shape.side)
    others = product(range(shape.side), repeat=shape.dims - 1)
    lines = []
    for rest in others:
        line = []
        for step in steps:
            coords = [*rest]
            coords.insert(axis, step)
            line.append(shape.index(tuple(coords)))
        lines.append(tuple(line))
    return tuple(sorted(lines))


@cache
def _neighbour_pairs(shape: Shape) -> tuple[tuple[int, int], ...]:
    pairs = []
    for index in range(shape.cells):
        coords = shape.coords(index)
        for axis in range(shape.dims):
            if coords[axis] + 1 < shape.side:
                pairs.append((index, index + shape.side**axis))
    return tuple(pairs)
