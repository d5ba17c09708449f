"""The four modes: each names its board's shape, its spawn rates and its rules (docs/arcade.md).

Mode ids are fixed (the API, the records and the pages use them): ``classic`` (2048, 4x4), ``cube2``
(3D, 2x2x2 Normal), ``cube3`` (3D, 3x3x3 Normal) and ``cube3-hard`` (3D, 3x3x3 Hard).
"""

from __future__ import annotations

from dataclasses import dataclass

from arcade.engine.errors import BadMode
from arcade.engine.geometry import Shape

MOVE_CAP = 20_000
"""A run stops after this many moves (ARCADE.md's cap for ``classic``; the project's choice on the cubes)."""


@dataclass(frozen=True, slots=True)
class Mode:
    """A mode's board and rules."""

    id: str
    """Its fixed id: ``classic``, ``cube2``, ``cube3`` or ``cube3-hard``."""
    shape: Shape
    """Its board: the 4x4 square, or a cube of side 2 or 3."""
    four_rate: float
    """The chance that a new tile is a 4 rather than a 2."""
    spawns: int
    """New tiles after each move that changed the board: 1 on Normal, 2 on Hard (the opening is 2 always)."""
    target: int
    """The target tile: 2048, or 256 on the 2x2x2 cube."""
    target_wins: bool
    """On the cubes, reaching the target stops the run as won until the player continues; on ``classic``
    the target is a milestone and play simply goes on."""
    undo: bool
    """Whether the mode has its one-level undo (the cubes)."""
    move_cap: int = MOVE_CAP
    """A run ends after this many moves played, undone ones included (:mod:`arcade.engine.run`)."""

    @property
    def hard(self) -> bool:
        """Whether this is a Hard mode (two spawns a move)."""
        return self.spawns > 1


CLASSIC = Mode(id="classic", shape=Shape(side=4, dims=2), four_rate=0.1, spawns=1, target=2048,
               target_wins=False, undo=False)
# The eight cells of the 2x2x2 leave no room to wait for a 4's partner: it spawns 4s at half classic's rate,
# the lowest of all modes. The 3x3x3 keeps classic's rate; Hard differs from Normal in its spawn count only.
CUBE2 = Mode(id="cube2", shape=Shape(side=2, dims=3), four_rate=0.05, spawns=1, target=256,
             target_wins=True, undo=True)
CUBE3 = Mode(id="cube3", shape=Shape(side=3, dims=3), four_rate=0.1, spawns=1, target=2048,
             target_wins=True, undo=True)
CUBE3_HARD = Mode(id="cube3-hard", shape=Shape(side=3, dims=3), four_rate=0.1, spawns=2, target=2048,
                  target_wins=True, undo=True)

MODES: dict[str, Mode] = {mode.id: mode for mode in (CLASSIC, CUBE2, CUBE3, CUBE3_HARD)}
"""Every mode by id, in the order the pages list them."""


def mode_by_id(mode_id: str) -> Mode:
    """The mode called ``mode_id``.

    Raises:
        BadMode: no such mode.
    """
    try:
        return MODES[mode_id]
    except KeyError:
        raise BadMode(mode_id) from None


def cube_mode(side: int, *, hard: bool = False) -> Mode:
    """The 3D mode on a cube of ``side`` 2 or 3; Hard exists on the 3x3x3 only, so Hard on 2x2x2 is Normal.

    Raises:
        BadMode: no cube of that side.
    """
    if side == 2:
        return CUBE2
    if side == 3:
        return CUBE3_HARD if hard else CUBE3
    raise BadMode(f"cube{side}")
