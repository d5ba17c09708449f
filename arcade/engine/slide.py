"""A move's slide: every line closes up toward the wall and merges pairs, nearest the wall first."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from arcade.engine.board import Board
from arcade.engine.geometry import Direction, Shape


@dataclass(frozen=True, slots=True)
class LineSlide:
    """One line after a slide, read from the wall slid toward."""

    values: tuple[int, ...]
    """The line's cells after the slide (0: empty), as long as the line."""
    gained: int
    """The score of the line's merges: the sum of the tiles they made."""
    merged: tuple[int, ...]
    """The positions (from the wall, 0-based) of the tiles made by a merge."""


@dataclass(frozen=True, slots=True)
class Slide:
    """A whole board after a slide, before any spawn."""

    board: Board
    """The board after the slide."""
    gained: int
    """The score of the slide: the sum of the tiles its merges made."""
    moved: bool
    """Whether any tile changed cell; a slide that moved nothing is not a move."""
    merged: tuple[int, ...]
    """The cells (sorted) holding a tile made by a merge in this slide."""


def slide_line(values: Sequence[int]) -> LineSlide:
    """Slide one line toward its first cell (``values`` read from the wall, 0 for an empty cell).

    The tiles close up toward the wall; then, walking from the wall, the first two neighbouring equal
    tiles merge into one of double value nearest the wall, the walk steps past both, and so on: a tile
    made by a merge never merges again in the same move.
    """
    after, gained, merged = _slide_line(tuple(values))
    return LineSlide(values=after, gained=gained, merged=merged)


def slide(board: Board, *, shape: Shape, direction: Direction) -> Slide:
    """Slide every line of ``board`` toward ``direction``'s wall.

    Raises:
        BadDirection: ``direction`` is not one of ``shape``'s.
    """
    cells = list(board)
    gained = 0
    merged: list[int] = []
    for line in shape.lines(direction):
        values = tuple([board[index] for index in line])
        after, line_gained, positions = _slide_line(values)
        if after == values:
            continue
        gained += line_gained
        merged.extend(line[position] for position in positions)
        for index, value in zip(line, after, strict=True):
            cells[index] = value
    result = tuple(cells)
    # Tiles keep their order along a line: the board is unchanged exactly when no tile changed cell.
    return Slide(board=result, gained=gained, moved=result != board, merged=tuple(sorted(merged)))


# Lines repeat (a run's boards hold few distinct values): each distinct line is worked out once.
@lru_cache(maxsize=1 << 16)
def _slide_line(values: tuple[int, ...]) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
    """The line after the slide, the score of its merges, the positions of the tiles they made."""
    tiles = [value for value in values if value]
    out: list[int] = []
    merged: list[int] = []
    gained = 0
    i, count = 0, len(tiles)
    while i < count:
        value = tiles[i]
        if i + 1 < count and tiles[i + 1] == value:
            value += value
            gained += value
            merged.append(len(out))
            i += 2
        else:
            i += 1
        out.append(value)
    out.extend([0] * (len(values) - len(out)))
    return tuple(out), gained, tuple(merged)
