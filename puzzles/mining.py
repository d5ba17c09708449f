"""Mining puzzles from CPU self-play, without Django: play a game, keep its proved forced wins.

The games are played by the CPU levels 3 and 4 on short budgets with a few random moves mixed in (and
random first moves), which makes varied games with tactics in them; :func:`games.engine.puzzle.find_puzzles`
keeps every position with a shortest win of 3 to 9 plies that is new for its side.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from games.engine.cpu import Level, think
from games.engine.position import Position
from games.engine.proof import Prover
from games.engine.puzzle import Found, find_puzzles

LEVELS = (Level.MEDIUM, Level.HARD)
BUDGET_MS = 30
RANDOM_SHARE = 0.05
RANDOM_OPENING_PLIES = 2


@dataclass(frozen=True, slots=True)
class MinedGame:
    """One self-play game and the puzzles found in it."""

    record: str
    found: tuple[Found, ...]


def self_play(rng: random.Random) -> Position:
    """One CPU self-play game to its end (reproducible from ``rng``'s state)."""
    position = Position.initial()
    while position.outcome is None:
        if position.ply < RANDOM_OPENING_PLIES or rng.random() < RANDOM_SHARE:
            peg = rng.choice(position.legal_pegs())
        else:
            peg = think(position, rng.choice(LEVELS), budget_ms=BUDGET_MS, seed=rng.randrange(1 << 30)).peg
        position = position.play(peg)
    return position


def mine(*, games: int, seed: int) -> Iterator[MinedGame]:
    """Play ``games`` self-play games from ``seed`` and yield each with its puzzles."""
    rng = random.Random(seed)
    for _ in range(games):
        record = self_play(rng).record()
        yield MinedGame(record, tuple(find_puzzles(record, prover=Prover())))
