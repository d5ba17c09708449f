"""The puzzle pool as plain data, without Django: ids, themes, starting ratings and the shipped data file.

The data file (``puzzles/data/pool.jsonl``) holds one puzzle a line, ``{"id", "record", "plies"}``, written by
``manage.py mine_puzzles --write`` and loaded by a data migration, so a fresh install has a pool at once.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from games.engine.position import Position
from games.engine.puzzle import PUZZLE_PLIES

POOL_FILE = Path(__file__).resolve().parent / "data" / "pool.jsonl"

THEMES: tuple[str, ...] = tuple(f"win_in_{plies}" for plies in PUZZLE_PLIES)
"""The themes a puzzle can have: the length of its shortest win (``win_in_3`` .. ``win_in_9``)."""

START_RATING = {3: 1200.0, 5: 1500.0, 7: 1800.0, 9: 2100.0}
"""A new puzzle's rating, by the length of its win (a guess that the first attempts correct)."""

START_RD = 250.0
"""A new puzzle's RD: less than a new player's 350, so a first few lucky solves do not throw it far."""

_ID_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"  # no l, o, 0, 1: ids are read aloud and typed
ID_LENGTH = 6


def themes_of(plies: int) -> list[str]:
    """A puzzle's themes, from the length of its shortest win."""
    return [f"win_in_{plies}"]


def plies_of_theme(theme: str) -> int:
    """The win length a theme names.

    Raises:
        ValueError: not a theme.
    """
    if theme not in THEMES:
        raise ValueError(f'"{theme}" is not a theme; the themes are {", ".join(THEMES)}.')
    return int(theme.removeprefix("win_in_"))


def board_key(position: Position) -> str:
    """The board's canonical key as 32 hex digits: equal for a board and its 8 symmetric images only."""
    return f"{position.canonical_key():032x}"


def puzzle_id(key: str) -> str:
    """A short id derived from the canonical key, so the same puzzle has the same id on every install."""
    digest = int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big")
    chars = []
    for _ in range(ID_LENGTH):
        digest, index = divmod(digest, len(_ID_ALPHABET))
        chars.append(_ID_ALPHABET[index])
    return "".join(chars)


@dataclass(frozen=True, slots=True)
class PoolEntry:
    """One puzzle of the data file."""

    id: str
    record: str
    plies: int

    @classmethod
    def of(cls, record: str, plies: int) -> PoolEntry:
        return cls(puzzle_id(board_key(Position.from_record(record))), record, plies)

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "record": self.record, "plies": self.plies}


def read_pool(path: Path = POOL_FILE) -> Iterator[PoolEntry]:
    """The entries of a data file, in file order."""
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                row = json.loads(line)
                yield PoolEntry(str(row["id"]), str(row["record"]), int(row["plies"]))


def write_pool(entries: Iterable[PoolEntry], path: Path = POOL_FILE) -> int:
    """Write entries as a data file, one JSON object a line; returns how many."""
    count = 0
    with path.open("w", encoding="utf-8") as out:
        for entry in entries:
            out.write(json.dumps(entry.to_json(), separators=(", ", ": ")) + "\n")
            count += 1
    return count
