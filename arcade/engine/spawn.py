"""New tiles: where and what they are, dealt from a randomness source the caller passes in.

The engine never seeds nor owns randomness: the server deals from its own (``random.SystemRandom``) and
keeps every spawn in the run's record, and a replay places the recorded spawns with :func:`place_spawns`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from arcade.engine.board import Board, empty_cells
from arcade.engine.errors import BadSpawn, gettext_noop
from arcade.engine.modes import Mode
from arcade.engine.slide import Slide

OPENING_TILES = 2
"""A run opens with two tiles, each placed as a spawn is (on Hard too)."""


class RandomSource(Protocol):
    """What the engine draws from: ``random.Random`` and ``random.SystemRandom`` are ones."""

    def random(self) -> float:
        """A float in [0, 1)."""
        ...

    def randrange(self, start: int, /) -> int:
        """An int in [0, start), uniformly."""
        ...


@dataclass(frozen=True, slots=True)
class Spawn:
    """A new tile."""

    cell: int
    """The cell it appears on (empty before it)."""
    value: int
    """2, or 4 at the mode's four-rate."""


def spawn_count(board: Board, *, mode: Mode) -> int:
    """How many tiles a move that changed the board (``board``: after its slide) spawns: the mode's count
    (2 on Hard), or fewer when fewer cells are empty."""
    return min(mode.spawns, board.count(0))


def deal_spawns(board: Board, *, mode: Mode, count: int, rng: RandomSource) -> tuple[Spawn, ...]:
    """``count`` new tiles for ``board``, one after another: each on a cell chosen uniformly among the cells
    still empty (``rng.randrange``), then a 4 at the mode's four-rate (``rng.random() < four_rate``), else a 2.

    Raises:
        BadSpawn: fewer than ``count`` cells are empty.
    """
    empty = list(empty_cells(board))
    if count > len(empty):
        raise BadSpawn(gettext_noop("No empty cell is left for a new tile."))
    spawns = []
    for _ in range(count):
        cell = empty.pop(rng.randrange(len(empty)))
        spawns.append(Spawn(cell=cell, value=4 if rng.random() < mode.four_rate else 2))
    return tuple(spawns)


def deal_opening(*, mode: Mode, rng: RandomSource) -> tuple[Spawn, ...]:
    """A run's two opening tiles on the empty board."""
    return deal_spawns((0,) * mode.shape.cells, mode=mode, count=OPENING_TILES, rng=rng)


def deal_after(slid: Slide, *, mode: Mode, rng: RandomSource) -> tuple[Spawn, ...]:
    """The spawns of a move: none when its slide moved nothing, else :func:`spawn_count` of them."""
    if not slid.moved:
        return ()
    return deal_spawns(slid.board, mode=mode, count=spawn_count(slid.board, mode=mode), rng=rng)


def place_spawns(board: Board, spawns: Sequence[Spawn]) -> Board:
    """``board`` with ``spawns`` placed in order.

    Raises:
        BadSpawn: a cell off the board or not empty (a spawn placed before it counts), or a value not 2 or 4.
    """
    cells = list(board)
    for spawn in spawns:
        if spawn.value not in (2, 4):
            raise BadSpawn(gettext_noop("A new tile is a 2 or a 4, not %(value)s."), params={"value": spawn.value})
        if not 0 <= spawn.cell < len(cells) or cells[spawn.cell]:
            raise BadSpawn(gettext_noop("Cell %(cell)s is not an empty cell of the board."),
                           params={"cell": spawn.cell})
        cells[spawn.cell] = spawn.value
    return tuple(cells)
