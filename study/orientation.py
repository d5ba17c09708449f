"""A position as the study tools store it: under its canonical key over the board's 8 symmetries
(``games/engine/symmetry.py``), with the symmetries that map it there, to turn pegs both ways."""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import Peg, Position, Symmetry, images


@dataclass(frozen=True, slots=True)
class Oriented:
    """A position as the explorer stores it: its canonical key (hex) and every symmetry that maps it there."""

    key: str
    symmetries: tuple[Symmetry, ...]

    @classmethod
    def of(cls, position: Position) -> Oriented:
        reds, yellows = images(position.red), images(position.yellow)
        keys = [(reds[s] << 64) | yellows[s] for s in range(8)]
        best = min(keys)
        return cls(f"{best:032x}", tuple(Symmetry(s) for s in range(8) if keys[s] == best))

    def stored_peg(self, peg: Peg) -> int:
        """The index the move ``peg`` is stored under: the smallest of its images that keep the position
        canonical (moves the position's own symmetries make equivalent are one)."""
        return min(s.apply_peg(peg).index for s in self.symmetries)

    def asked_peg(self, stored: int) -> Peg:
        """A stored move in the asked position's orientation."""
        return self.symmetries[0].inverse.apply_peg(Peg.from_index(stored))
