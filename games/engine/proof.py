"""Depth-limited proof search: does the side to move win (or lose) by force within N plies?

Standard library only; raw-int bitboards as in :mod:`games.engine.cpu.search` (``own`` is the side
to move, ``opp`` the other side, ``t_own`` / ``t_opp`` their threat cells, gravity ignored).

Two boolean questions, each exact (no heuristic, no unsound pruning):

* ``wins(own, opp, t_own, t_opp, depth)``: the side to move can force a line of four within
  ``depth`` plies (its own moves are plies 1, 3, 5, ...), whatever the opponent does;
* ``loses(..., depth)``: whatever the side to move does, the opponent completes a line within
  ``depth`` plies.

A full board before that is a draw, which is neither. The shortest win (the smallest ``depth`` for
which ``wins`` holds) is the game-theoretic distance to a win when both sides play best (the winner
hurrying, the loser resisting); likewise the smallest ``depth`` for which ``loses`` holds is the
longest defence. With ``depth`` at least the number of empty cells the two questions solve the
game: neither means a proved draw.

Pruning that keeps the answers exact:

* a playable threat of the side to move wins at once; two playable threats of the opponent (which
  cannot both be blocked) lose; one must be blocked, so it is the only move searched;
* a bead dropped directly beneath an opponent's threat cell lets the opponent win on the next ply,
  before any win of ours that is not immediate, so such moves are never searched for either side;
* a win needs the winner's turn: ``wins`` with fewer than 3 plies left is decided by the playable
  threats alone, and the attacker's last move before a win in 3 is judged by looking at the
  threats it leaves (two playable ones; one with another right above it; or every defending move
  landing beneath a threat) instead of by another level of search;
* a transposition table per question remembers, for each board, the deepest depth proved to have
  no win (or loss) and the shallowest proved to have one; symmetric images share an entry.

Results are independent of move order and of the tables (only the cost changes), so the answers
do not depend on the budget except through :class:`ProofBudgetSpent`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from games.engine.bitboard import BOTTOM, CELLS, FULL, drop_bit, threat_cells
from games.engine.cpu.tables import REST, canonical
from games.engine.position import Position
from games.engine.values import Peg

_CHECK_INTERVAL = 1024
"""Nodes between two looks at the budget."""

_TABLE_LIMIT = 1_000_000
"""Entries per table before it is cleared (about 100 MB each when full; a game fills a few hundred thousand)."""

_NEVER = 1 << 10
"""Table placeholder: no win (or loss) proved at any depth yet."""


class ProofBudgetSpent(Exception):
    """The node budget or the deadline ran out inside a proof; its partial result means nothing."""


def new_threats(bit: int, own: int, opp: int) -> int:
    """Threat cells ``own`` gains by filling cell ``bit`` (lines through it now holding three of its beads)."""
    threats = 0
    for rest in REST[bit]:
        if not rest & opp and (rest & own).bit_count() == 2:
            threats |= rest & ~own
    return threats


def _order_key(bit: int, own: int, opp: int) -> int:
    """How promising filling ``bit`` looks for ``own``: lines it extends and opponent lines it blocks."""
    value = 0
    for rest in REST[bit]:
        theirs = rest & opp
        if theirs:
            if not rest & own:
                value += (1, 3, 9, 30)[theirs.bit_count()]
        else:
            value += (1, 3, 10, 0)[(rest & own).bit_count()]
    return value


class Prover:
    """The two proof searches with their transposition tables, bounded by nodes and a deadline.

    One prover may serve many positions (of one game or several): its tables hold facts about
    boards, not about the game that reached them. Not thread-safe.
    """

    def __init__(
        self,
        *,
        max_nodes: int | None = None,
        deadline: float | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.nodes = 0
        """Nodes visited so far (one per call of :meth:`wins` or :meth:`loses`)."""
        self.max_nodes = max_nodes
        """Raise :class:`ProofBudgetSpent` once ``nodes`` reaches this (None: no limit)."""
        self.deadline = deadline
        """Raise :class:`ProofBudgetSpent` once ``clock()`` reaches this (None: no limit)."""
        self.clock = clock
        self._check_at = _CHECK_INTERVAL
        # key -> (deepest depth proved without a win, shallowest depth proved with one); same for losses.
        self._win_table: dict[int, tuple[int, int]] = {}
        self._loss_table: dict[int, tuple[int, int]] = {}

    def _check(self) -> None:
        self._check_at = self.nodes + _CHECK_INTERVAL
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise ProofBudgetSpent
        if self.deadline is not None and self.clock() >= self.deadline:
            raise ProofBudgetSpent

    # -- the two questions ---------------------------------------------------------------------

    def wins(self, own: int, opp: int, t_own: int, t_opp: int, depth: int) -> bool:
        """True when the side to move forces a line of four within ``depth`` plies.

        Raises:
            ProofBudgetSpent: the budget ran out.
        """
        self.nodes += 1
        if self.nodes >= self._check_at:
            self._check()
        occupied = own | opp
        play = ((occupied << 16) | BOTTOM) & ~occupied & FULL
        if play & t_own:
            return True
        depth -= not depth & 1  # a win comes on an odd ply: 2k plies allow what 2k - 1 do
        if depth < 3:
            return False
        moves = _candidates(play, t_opp)
        if not moves:
            return False
        if depth == 3:
            return _wins_in_three(own, opp, t_own, play, moves)
        key, _ = canonical(own, opp)
        entry = self._win_table.get(key)
        if entry is not None:
            if depth <= entry[0]:
                return False
            if depth >= entry[1]:
                return True
        result = False
        for low, threats in _attacking_order(own, opp, play, moves):
            if self.loses(opp, own | low, t_opp & ~low, t_own | threats, depth - 1):
                result = True
                break
        self._win_table[key] = _updated(entry, depth, result)
        if len(self._win_table) >= _TABLE_LIMIT:
            self._win_table.clear()
        return result

    def loses(self, own: int, opp: int, t_own: int, t_opp: int, depth: int) -> bool:
        """True when the opponent forces a line of four within ``depth`` plies, whatever the side to move does.

        Raises:
            ProofBudgetSpent: the budget ran out.
        """
        self.nodes += 1
        if self.nodes >= self._check_at:
            self._check()
        occupied = own | opp
        play = ((occupied << 16) | BOTTOM) & ~occupied & FULL
        if play & t_own or not play:
            return False
        if play & t_opp and (play & t_opp) & ((play & t_opp) - 1):
            return True  # two playable threats: one of them stays open
        moves = _candidates(play, t_opp)
        if not moves:
            return True
        if depth < 4:
            return False  # any candidate stops a win on the next ply, and the one after is ours
        depth -= depth & 1  # the opponent wins on an even ply
        key, _ = canonical(own, opp)
        entry = self._loss_table.get(key)
        if entry is not None:
            if depth <= entry[0]:
                return False
            if depth >= entry[1]:
                return True
        result = True
        for low, threats in _defending_order(own, opp, moves):
            if not self.wins(opp, own | low, t_opp & ~low, t_own | threats, depth - 1):
                result = False
                break
        self._loss_table[key] = _updated(entry, depth, result)
        if len(self._loss_table) >= _TABLE_LIMIT:
            self._loss_table.clear()
        return result

    # -- the moves behind an answer ------------------------------------------------------------

    def winning_move(self, own: int, opp: int, t_own: int, t_opp: int, depth: int) -> int | None:
        """The cell of a move that wins within ``depth`` plies, or None when there is none.

        The moves are tried in the order :meth:`wins` uses, so right after ``wins`` said yes this
        costs next to nothing (the answers are in the tables).

        Raises:
            ProofBudgetSpent: the budget ran out.
        """
        occupied = own | opp
        play = ((occupied << 16) | BOTTOM) & ~occupied & FULL
        if play & t_own:
            return _lowest_cell(play & t_own)
        moves = _candidates(play, t_opp)
        if depth < 3 or not moves:
            return None
        for low, threats in _attacking_order(own, opp, play, moves):
            if self.loses(opp, own | low, t_opp & ~low, t_own | threats, depth - 1):
                return low.bit_length() - 1
        return None

    def escape(self, own: int, opp: int, t_own: int, t_opp: int, depth: int) -> int | None:
        """The cell of a move after which the opponent cannot win within ``depth - 1`` plies, or None.

        The moves are tried in the order :meth:`loses` uses (cheap right after ``loses`` said no).
        A win at once counts as an escape.

        Raises:
            ProofBudgetSpent: the budget ran out.
        """
        occupied = own | opp
        play = ((occupied << 16) | BOTTOM) & ~occupied & FULL
        if play & t_own:
            return _lowest_cell(play & t_own)
        moves = _candidates(play, t_opp)
        for low, threats in _defending_order(own, opp, moves):
            if not self.wins(opp, own | low, t_opp & ~low, t_own | threats, depth - 1):
                return low.bit_length() - 1
        return None


def _lowest_cell(cells: int) -> int:
    return (cells & -cells).bit_length() - 1


def _candidates(play: int, t_opp: int) -> int:
    """The moves worth searching: the opponent's single playable threat if it has one (it must be
    blocked), else every playable cell; minus the cells right beneath an opponent's threat. Empty
    when the opponent has two playable threats."""
    forced = play & t_opp
    if forced:
        if forced & (forced - 1):
            return 0
        return forced & ~(t_opp >> 16)
    return play & ~(t_opp >> 16)


def _updated(entry: tuple[int, int] | None, depth: int, result: bool) -> tuple[int, int]:
    low, high = entry if entry is not None else (0, _NEVER)
    return (low, min(high, depth)) if result else (max(low, depth), high)


def _attacking_order(own: int, opp: int, play: int, moves: int) -> list[tuple[int, int]]:
    """``(cell mask, new threats)`` of the attacker's ``moves``, most forcing first."""
    children = []
    rest = moves
    while rest:
        low = rest & -rest
        rest ^= low
        bit = low.bit_length() - 1
        threats = new_threats(bit, own, opp)
        order = _order_key(bit, own, opp)
        if threats:
            order += 100 if threats & (play | (low << 16)) else 20
        children.append((order, low, threats))
    children.sort(reverse=True)
    return [(low, threats) for _, low, threats in children]


def _defending_order(own: int, opp: int, moves: int) -> list[tuple[int, int]]:
    """``(cell mask, new threats)`` of the defender's ``moves``, the most obstructive first."""
    children = []
    rest = moves
    while rest:
        low = rest & -rest
        rest ^= low
        bit = low.bit_length() - 1
        children.append((_order_key(bit, own, opp), low, new_threats(bit, own, opp)))
    children.sort(reverse=True)
    return [(low, threats) for _, low, threats in children]


def _wins_in_three(own: int, opp: int, t_own: int, play: int, moves: int) -> bool:
    """``wins`` with 3 plies left: some move leaves the defender no way to stop a win next turn.

    ``moves`` already excludes the cells beneath the defender's threats and blocks its single
    playable threat, so the defender cannot win at once after any of them.
    """
    rest = moves
    while rest:
        low = rest & -rest
        rest ^= low
        threats = t_own | new_threats(low.bit_length() - 1, own, opp)
        after = (play ^ low) | ((low << 16) & FULL)
        mine = after & threats
        if mine:
            # Two playable threats cannot both be blocked; blocking one opens the cell above it.
            if mine & (mine - 1) or (mine << 16) & threats:
                return True
        elif after and not after & ~(threats >> 16):
            return True  # every defending move lands right beneath one of our threats
    return False


# -- boards as the proof search sees them ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Board:
    """A position for the side to move: its beads, the other side's and both sides' threat cells (the
    arguments of every question of :class:`Prover`, in that order: ``prover.wins(*board.args, depth)``)."""

    own: int
    opp: int
    t_own: int
    t_opp: int

    @classmethod
    def of(cls, position: Position) -> Board:
        colour = position.to_move
        assert colour is not None
        own, opp = position.bits(colour), position.bits(colour.other)
        occupied = own | opp
        return cls(own, opp, threat_cells(own, occupied), threat_cells(opp, occupied))

    @property
    def args(self) -> tuple[int, int, int, int]:
        return self.own, self.opp, self.t_own, self.t_opp

    @property
    def empties(self) -> int:
        return CELLS - (self.own | self.opp).bit_count()

    def landing(self, peg: Peg) -> int:
        """The single-bit mask a bead dropped on ``peg`` lands on (0 if the peg is full)."""
        return drop_bit(self.own | self.opp, peg.index)

    def legal(self) -> list[Peg]:
        """The pegs with room, in peg-name order."""
        return [peg for peg in Peg if self.landing(peg)]

    def playable(self) -> int:
        """The cells a bead can land on this move."""
        occupied = self.own | self.opp
        return ((occupied << 16) | BOTTOM) & ~occupied & FULL

    def wins_at_once(self, peg: Peg) -> bool:
        return bool(self.landing(peg) & self.t_own)

    def any_move(self) -> int | None:
        """A legal move's cell, blocking an opponent's threat if one is playable (None: the board is full)."""
        play = self.playable()
        cells = (play & self.t_opp) or play
        return (cells & -cells).bit_length() - 1 if cells else None

    def child(self, peg: Peg) -> Board:
        """The board after the side to move plays ``peg`` (which must not win at once)."""
        return self.child_at(self.landing(peg))

    def child_at(self, low: int) -> Board:
        """The board after the side to move fills the single-bit mask ``low`` (not a win at once)."""
        threats = new_threats(low.bit_length() - 1, self.own, self.opp)
        return Board(self.opp, self.own | low, self.t_opp & ~low, self.t_own | threats)
