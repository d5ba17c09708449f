"""Boards: a flat tuple of cells, 0 for an empty cell, else the tile's value (a power of two, 2 or more)."""

from __future__ import annotations

from collections.abc import Iterable

from arcade.engine.errors import BadBoard, gettext_noop
from arcade.engine.geometry import Shape

Board = tuple[int, ...]
"""A board's cells in index order (:mod:`arcade.engine.geometry`); 0 is an empty cell."""


def is_tile(value: int) -> bool:
    """Whether ``value`` can be a tile: a power of two, 2 or more."""
    return value >= 2 and value & (value - 1) == 0


def board_from(cells: Iterable[int], *, shape: Shape) -> Board:
    """``cells`` as a board of ``shape``, checked.

    Raises:
        BadBoard: the wrong number of cells, or a cell neither 0 nor a tile.
    """
    board = tuple(cells)
    if len(board) != shape.cells:
        raise BadBoard(gettext_noop("A board of this mode has %(cells)d cells."), params={"cells": shape.cells})
    bad = [value for value in board if value != 0 and not (isinstance(value, int) and is_tile(value))]
    if bad:
        raise BadBoard(gettext_noop("%(value)s is not a tile."), params={"value": bad[0]})
    return board


def empty_cells(board: Board) -> tuple[int, ...]:
    """The indexes of the empty cells, in index order."""
    return tuple(index for index, value in enumerate(board) if value == 0)


def top_tile(board: Board) -> int:
    """The largest tile on the board (0 on an empty board)."""
    return max(board, default=0)


def has_move(board: Board, *, shape: Shape) -> bool:
    """Whether some move changes the board: a cell is empty, or two equal tiles are neighbours along an axis."""
    return 0 in board or any(board[a] == board[b] for a, b in shape.neighbour_pairs())


def is_stuck(board: Board, *, shape: Shape) -> bool:
    """Every cell holds a tile and no two equal tiles are neighbours along any axis: no move is left."""
    return not has_move(board, shape=shape)
