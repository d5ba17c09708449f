"""The CPU player: five levels from Beginner to Master (standard library only).

The server calls :func:`choose_move` in a worker process; it is a pure function of its arguments
(no module state is shared between calls), so it is also safe in threads. :func:`think` is the
typed variant that also reports how the move was found. How the search works: ``docs/cpu.md``.
"""

from __future__ import annotations

from games.engine.cpu.levels import LEVELS, Level, LevelSettings
from games.engine.cpu.player import Decision, analyse, sees_win, think
from games.engine.position import Position

__all__ = [
    "LEVELS", "Decision", "Level", "LevelSettings", "analyse", "choose_move", "default_budget_ms", "sees_win", "think",
]


def choose_move(record: str, level: int, *, budget_ms: int | None = None, seed: int | None = None) -> str:
    """The peg (e.g. ``"b3"``) the CPU plays at ``level`` (1-5) in the position after ``record``.

    ``budget_ms`` overrides the level's thinking time (:func:`default_budget_ms`). With ``seed`` the
    choice is reproducible (see :mod:`games.engine.cpu.player`); without it, equally good moves are
    chosen between at random.

    Raises:
        EngineError: ``record`` breaks a rule.
        ValueError: the game is over, or ``level`` is not 1..5.
    """
    position = Position.from_record(record)
    return str(think(position, Level.from_number(level), budget_ms=budget_ms, seed=seed).peg)


def default_budget_ms(level: int) -> int:
    """The thinking time per move of ``level`` (1-5), in milliseconds.

    Raises:
        ValueError: ``level`` is not 1..5.
    """
    return Level.from_number(level).settings.budget_ms
