"""A deliberately naive reference implementation of the rules, for cross-checking the engine.

It shares no code with games.engine: a 4x4x4 grid of lists, lines found by walking the 13
directions cell by cell. Cells are (column, row, level) triples, all 0-based.
"""

from __future__ import annotations

import functools
import itertools

LETTERS = "abcd"
DIGITS = "1234"

# Each direction and its opposite describe the same lines; keep the one whose first non-zero step is positive.
STEPS = [step for step in itertools.product((-1, 0, 1), repeat=3) if any(step) and next(s for s in step if s) > 0]


class RefError(Exception):
    """A rule violation; ``code`` is the engine's machine code."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def on_board(column: int, row: int, level: int) -> bool:
    return 0 <= column < 4 and 0 <= row < 4 and 0 <= level < 4


@functools.cache  # the walk is slow and its answer never changes
def lines_through(column: int, row: int, level: int) -> list[tuple[tuple[int, int, int], ...]]:
    """All 4-cell lines through a cell, each as its cells sorted by (column, row, level)."""
    found = []
    for dc, dr, dl in STEPS:
        c, r, lv = column, row, level
        while on_board(c - dc, r - dr, lv - dl):
            c, r, lv = c - dc, r - dr, lv - dl
        cells = []
        while on_board(c, r, lv):
            cells.append((c, r, lv))
            c, r, lv = c + dc, r + dr, lv + dl
        if len(cells) == 4:
            found.append(tuple(sorted(cells)))
    return found


def all_lines() -> set[tuple[tuple[int, int, int], ...]]:
    return {
        line
        for column, row, level in itertools.product(range(4), repeat=3)
        for line in lines_through(column, row, level)
    }


def peg_name(column: int, row: int) -> str:
    return LETTERS[column] + DIGITS[row]


def parse_peg(name: str) -> tuple[int, int]:
    if len(name) != 2 or name[0] not in LETTERS or name[1] not in DIGITS:
        raise RefError("bad_peg")
    return LETTERS.index(name[0]), DIGITS.index(name[1])


class RefGame:
    def __init__(self) -> None:
        # grid[column][row] is the list of colours on that peg, bottom first.
        self.grid: list[list[list[str]]] = [[[] for _ in range(4)] for _ in range(4)]
        self.ply = 0
        self.winner: str | None = None
        self.line: tuple[tuple[int, int, int], ...] | None = None
        self.drawn = False

    @classmethod
    def from_record(cls, record: str) -> RefGame:
        game = cls()
        for name in record.split():
            game.play(name)
        return game

    def copy(self) -> RefGame:
        twin = RefGame()
        twin.grid = [[list(stack) for stack in column] for column in self.grid]
        twin.ply, twin.winner, twin.line, twin.drawn = self.ply, self.winner, self.line, self.drawn
        return twin

    @property
    def over(self) -> bool:
        return self.winner is not None or self.drawn

    @property
    def to_move(self) -> str | None:
        if self.over:
            return None
        return "red" if self.ply % 2 == 0 else "yellow"

    def colour_at(self, column: int, row: int, level: int) -> str | None:
        stack = self.grid[column][row]
        return stack[level] if level < len(stack) else None

    def completed_lines(self, column: int, row: int, level: int, colour: str) -> list[tuple]:
        return [
            line
            for line in lines_through(column, row, level)
            if all((c, r, lv) == (column, row, level) or self.colour_at(c, r, lv) == colour for c, r, lv in line)
        ]

    def play(self, name: str) -> None:
        column, row = parse_peg(name)
        if self.over:
            raise RefError("game_over")
        stack = self.grid[column][row]
        if len(stack) == 4:
            raise RefError("peg_full")
        colour = self.to_move
        assert colour is not None
        level = len(stack)
        completed = self.completed_lines(column, row, level, colour)
        stack.append(colour)
        self.ply += 1
        if completed:
            self.winner = colour
            self.line = min(completed)
        elif self.ply == 64:
            self.drawn = True

    def legal(self) -> list[str]:
        if self.over:
            return []
        return sorted(peg_name(c, r) for c in range(4) for r in range(4) if len(self.grid[c][r]) < 4)

    def threats(self, colour: str) -> list[tuple[str, int, bool]]:
        """(peg, level 1..4, playable) for each empty cell completing a line of ``colour``, sorted."""
        found = []
        for column, row, level in itertools.product(range(4), repeat=3):
            if self.colour_at(column, row, level) is None and self.completed_lines(column, row, level, colour):
                playable = len(self.grid[column][row]) == level
                found.append((peg_name(column, row), level + 1, playable))
        return sorted(found)

    def cells_of(self, colour: str) -> set[tuple[str, int]]:
        return {
            (peg_name(c, r), level + 1)
            for c in range(4)
            for r in range(4)
            for level, bead in enumerate(self.grid[c][r])
            if bead == colour
        }

    def status(self) -> str:
        if self.winner is not None:
            return "won"
        return "drawn" if self.drawn else "playing"

    def line_names(self) -> list[tuple[str, int]] | None:
        if self.line is None:
            return None
        return [(peg_name(c, r), level + 1) for c, r, level in self.line]


def perft(game: RefGame, depth: int) -> int:
    if depth == 0:
        return 1
    moves = game.legal()
    if depth == 1:
        return len(moves)
    total = 0
    for name in moves:
        child = game.copy()
        child.play(name)
        total += perft(child, depth - 1)
    return total
