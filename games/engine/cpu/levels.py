"""The five CPU levels: what each one knows, how long it thinks, and the paragraph a player reads."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from games.engine.cpu.evaluation import Weights


class Level(IntEnum):
    """A CPU strength, 1 (weakest) to 5. ``MEDIUM`` is the default."""

    BEGINNER = 1
    EASY = 2
    MEDIUM = 3
    HARD = 4
    MASTER = 5

    @classmethod
    def from_number(cls, number: int) -> Level:
        """The level numbered ``number``.

        Raises:
            ValueError: ``number`` is not 1..5.
        """
        try:
            return cls(number)
        except ValueError:
            raise ValueError(f"CPU level must be 1..5, not {number!r}") from None

    @property
    def settings(self) -> LevelSettings:
        """How this level plays."""
        return LEVELS[self]


@dataclass(frozen=True, slots=True)
class LevelSettings:
    """How one level plays."""

    title: str
    """The name shown to players."""
    budget_ms: int
    """Default thinking time per move, in milliseconds (a ceiling: easy positions take less)."""
    max_depth: int
    """Deepest search, in plies; 0 for the levels that do not search (Beginner, Easy)."""
    weights: Weights
    """The evaluation's parameters."""
    solve_empties: int
    """Try to solve the game exactly once at most this many cells are empty (0: never)."""
    soft_fraction: float
    """Start no new iteration of the search once this share of the (remaining) budget is spent."""
    description: str
    """One short paragraph a player can read."""


_LINES_ONLY = Weights(threat_good=0, threat_bad=0, stacked=0)

LEVELS: dict[Level, LevelSettings] = {
    Level.BEGINNER: LevelSettings(
        title="Beginner",
        budget_ms=40,
        max_depth=0,
        weights=_LINES_ONLY,
        solve_empties=0,
        soft_fraction=0.4,
        description=(
            "Beginner likes to build lines but looks only at its own move, and not carefully: it often "
            "misses a win it could take at once and forgets to block yours about half the time. It is "
            "a gentle first opponent, and it is there to be beaten."
        ),
    ),
    Level.EASY: LevelSettings(
        title="Easy",
        budget_ms=60,
        max_depth=0,
        weights=_LINES_ONLY,
        solve_empties=0,
        soft_fraction=0.4,
        description=(
            "Easy always takes a win that is there for the taking and always blocks a line of three you "
            "could finish next move, but it does not look further ahead. It sometimes drops a bead right "
            "under your threat, handing you the win, and it never sees two threats coming."
        ),
    ),
    Level.MEDIUM: LevelSettings(
        title="Medium",
        budget_ms=120,
        max_depth=4,
        weights=_LINES_ONLY,
        solve_empties=0,
        soft_fraction=0.4,
        description=(
            "Medium looks four moves ahead (its own, yours, its own, yours), so it wins and blocks "
            "reliably, never drops a bead beneath your threat, and sets up simple double threats. It "
            "judges positions by counting open lines and does not understand which threats will come "
            "first as the pegs fill up: plan further ahead than it does to win."
        ),
    ),
    Level.HARD: LevelSettings(
        title="Hard",
        budget_ms=1000,
        max_depth=64,
        weights=_LINES_ONLY,
        solve_empties=20,
        soft_fraction=0.4,
        description=(
            "Hard thinks for up to a second and searches as deep as that allows, usually six to ten "
            "moves, and it plays the last twenty or so moves perfectly when it has the time. Like Medium "
            "it judges a position by its open lines, so it does not see which threats will come first "
            "as the pegs fill up: a player who plans for that can outlast it."
        ),
    ),
    Level.MASTER: LevelSettings(
        title="Master",
        budget_ms=2000,
        max_depth=64,
        weights=Weights(),
        solve_empties=30,
        soft_fraction=0.4,
        description=(
            "Master thinks for up to two seconds and knows what Hard does not: it values threats by the "
            "level they sit on, knowing that as the pegs fill up the first player tends to get the odd "
            "levels and the second the even ones. It tries to calculate the ending perfectly from thirty "
            "empty cells on. It rarely loses; beating it takes a real plan."
        ),
    ),
}
