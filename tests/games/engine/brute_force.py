"""A plain brute-force forced-win search, independent of the engine, to check the analysis against.

It shares no code with ``games.engine``: the lines of four come from the naive reference
(``engine_reference.all_lines``), the board is its own bitboard with another layout (bit
``16 * column + 4 * row + level``, so a peg's four cells are one nibble), and the search is the
textbook AND-OR recursion over every legal move with no pruning at all beyond stopping at the first
winning move / refuting reply. A memo of answers per board (a dict of depth bounds) only saves time,
as do the tables and the loops written out below (the same moves in the same order, each line checked the
same way: about twice as fast as plain calls, for the checks of the puzzle pool and of the analysis), the
replies that complete a line looked for before any is searched, and the last reply of a search (the
mover then needs a line at once) answered from the cells it leaves playable instead of by playing each
(the same answers as the plain recursion: a third fewer seconds again).

Depths count plies from the position: the side to move plays plies 1, 3, 5, ...
"""

from __future__ import annotations

import functools
import itertools
import operator

from tests.games.engine.engine_reference import all_lines, parse_peg, peg_name

_LINES = [sum(1 << (16 * column + 4 * row + level) for column, row, level in line) for line in all_lines()]
assert len(_LINES) == 76
_OTHER_CELLS = [tuple(line & ~(1 << bit) for line in _LINES if line >> bit & 1) for bit in range(64)]
"""For each cell, the other three cells of every line through it."""
_AROUND = [functools.reduce(operator.or_, rests) for rests in _OTHER_CELLS]
"""For each cell, every other cell of its lines."""
_BOTTOMS = 0x1111_1111_1111_1111
"""Each peg's bottom cell (beads fill a peg's nibble from its bottom bit up)."""
_ABOVE_BOTTOM = 0xEEEE_EEEE_EEEE_EEEE
_CELLS = [
    {
        sum(1 << (4 * row + level) for row, level in enumerate(levels) if level < 4): tuple(
            16 * column + 4 * row + level for row, level in enumerate(levels) if level < 4
        )
        for levels in itertools.product(range(5), repeat=4)
    }
    for column in range(4)
]
"""Per column (16 bits), from the bits of its pegs' landing cells (at most one per nibble; level 4: none)
to those cells, in bit order."""


class BruteForce:
    """Answers "can the side to move force a win within d plies?" by exhaustive search."""

    def __init__(self) -> None:
        self._memo: dict[tuple[int, int], tuple[int, int]] = {}
        self.nodes = 0

    @staticmethod
    def board(record: str) -> tuple[int, int]:
        """``(mover, other)`` bitboards after the moves of ``record`` (the game must not be over)."""
        beads = [0, 0]
        for ply, name in enumerate(record.split()):
            column, row = parse_peg(name)
            shift = 16 * column + 4 * row
            level = ((beads[0] | beads[1]) >> shift & 15).bit_count()
            assert level < 4, f"{name} is full"
            beads[ply % 2] |= 1 << (shift + level)
        mover = len(record.split()) % 2
        return beads[mover], beads[1 - mover]

    @staticmethod
    def moves(mover: int, other: int) -> tuple[int, ...]:
        """The cell (bit) each legal move lands on, peg by peg: the lowest empty bit of each nibble."""
        occupied = mover | other
        free = (((occupied << 1) & _ABOVE_BOTTOM) | _BOTTOMS) & ~occupied
        return (_CELLS[0][free & 0xFFFF] + _CELLS[1][free >> 16 & 0xFFFF]
                + _CELLS[2][free >> 32 & 0xFFFF] + _CELLS[3][free >> 48])

    @staticmethod
    def completes(beads: int, cell: int) -> bool:
        """Whether adding ``cell`` to ``beads`` makes a line of four."""
        for rest in _OTHER_CELLS[cell]:  # noqa: SIM110 - a loop is faster than any() here
            if beads & rest == rest:
                return True
        return False

    @staticmethod
    def peg_of(cell: int) -> str:
        shift = cell & ~3
        return peg_name(shift // 16, (shift % 16) // 4)

    def wins_within(self, mover: int, other: int, depth: int) -> bool:
        """The side to move (``mover``) forces a line of four within ``depth`` plies."""
        self.nodes += 1
        moves = self.moves(mover, other)
        for cell in moves:  # any move that completes a line (written out: this is the hot loop)
            if (mover & _AROUND[cell]).bit_count() < 3:
                continue  # fewer than three beads on all its lines together
            for rest in _OTHER_CELLS[cell]:
                if mover & rest == rest:
                    return True
        if depth < 3:
            return False
        key = (mover, other)
        low, high = self._memo.get(key, (0, 99))
        if depth <= low:
            return False
        if depth >= high:
            return True
        result = any(self.wins_after(mover, other, cell, depth) for cell in moves)
        self._memo[key] = (low, min(high, depth)) if result else (max(low, depth), high)
        return result

    def wins_after(self, mover: int, other: int, cell: int, depth: int) -> bool:
        """After the side to move fills ``cell``, it wins within ``depth - 1`` more plies whatever the reply
        (``cell`` itself may complete a line)."""
        if self.completes(mover, cell):
            return True
        mover |= 1 << cell
        replies = self.moves(other, mover)
        if not replies:
            return False  # the board is full: a draw
        for reply in replies:  # any reply that completes a line refutes at once: looked for first
            if (other & _AROUND[reply]).bit_count() < 3:
                continue
            for rest in _OTHER_CELLS[reply]:
                if other & rest == rest:
                    return False
        if depth < 5:
            return self._threat_after_every_reply(mover, replies)
        return all(self.wins_within(mover, other | 1 << reply, depth - 2) for reply in replies)

    @staticmethod
    def _threat_after_every_reply(mover: int, replies: tuple[int, ...]) -> bool:
        """``wins_within(mover, other | 1 << reply, 1)`` for each reply (none completes a line), without
        playing them: after ``reply`` the playable cells are those before it but ``reply`` itself, and the
        cell above ``reply`` (none above the top level); the mover needs one of them to complete a line."""
        now = []  # the playable cells that complete one of the mover's lines
        for cell in replies:
            if (mover & _AROUND[cell]).bit_count() >= 3:
                for rest in _OTHER_CELLS[cell]:
                    if mover & rest == rest:
                        now.append(cell)
                        break
        if len(now) > 1:
            return True  # whichever the reply takes, another is left
        for reply in replies:
            if now and now[0] != reply:
                continue
            above = reply + 1
            if reply & 3 == 3 or (mover & _AROUND[above]).bit_count() < 3:
                return False
            for rest in _OTHER_CELLS[above]:
                if mover & rest == rest:
                    break
            else:
                return False
        return True

    def shortest_win(self, mover: int, other: int, limit: int) -> int | None:
        """The least number of plies within which the side to move forces a win, if at most ``limit``."""
        for depth in range(1, limit + 1, 2):
            if self.wins_within(mover, other, depth):
                return depth
        return None

    def loses_within(self, mover: int, other: int, depth: int) -> bool:
        """Whatever the side to move does, the other side forces a line of four within ``depth`` plies."""
        moves = self.moves(mover, other)
        if not moves:
            return False
        for cell in moves:
            if self.completes(mover, cell):
                return False
            if not self.wins_within(other, mover | 1 << cell, depth - 1):
                return False
        return True
