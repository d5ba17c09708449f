"""Placeholder CPU (replaced by the real search): win, else block, else a seeded random move."""

from __future__ import annotations

import random

from games.engine.position import Position


def choose_move(record: str, level: int, *, budget_ms: int | None = None, seed: int | None = None) -> str:
    """The peg the CPU plays at ``level`` (1-5) in the position after ``record``."""
    position = Position.from_record(record)
    me = position.to_move
    if me is None:
        raise ValueError("the game is over")
    legal = position.legal_pegs()
    for colour in (me, me.other):
        for threat in position.threats(colour):
            if threat.playable:
                return str(threat.cell.peg)
    return str(random.Random(seed).choice(legal))


def default_budget_ms(level: int) -> int:
    return {1: 50, 2: 100, 3: 150, 4: 1000, 5: 2000}[level]
