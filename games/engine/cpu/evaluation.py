"""What the CPU's search knows of a position: the node, its incremental update, its evaluation, the scores.

A search node is the side to move's beads ``own``, the other side's ``opp``, both sides' threat
cells ``t_own`` / ``t_opp`` (empty cells that would complete one of their lines, gravity ignored) and
``score``, the line part of the evaluation from the mover's point of view. Playing a bead only
changes the lines through its cell, so a child's threats and score are updated from :data:`REST`
(:func:`gain`) instead of rescanning the 76 lines.

Scores: a win ending the game at ply ``p`` (counted from the root) is ``WIN - p``, a loss
``p - WIN``, a draw 0; anything in between is the heuristic evaluation (:func:`evaluate`).

Before any move is searched, a node applies the *forced-move shortcuts* (:func:`safe_moves`): a
playable threat of its own is a win; two playable threats of the opponent are a loss; one must be
blocked; a bead dropped directly beneath an opponent's threat cell hands them the win, so such moves
are never searched. The search itself, which inlines these for speed, is :mod:`games.engine.cpu.search`.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.bitboard import BOTTOM, FULL, LINES
from games.engine.cpu.tables import EVEN_LEVELS, ODD_LEVELS, REST, above

WIN = 1_000_000
"""Score of a win on the spot; a win at ply ``p`` scores ``WIN - p``."""

MATE_BOUND = WIN - 1000
"""Scores beyond +/-MATE_BOUND are decided games, not evaluations."""

INFINITY = WIN + 1


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluation's parameters (all scores are from the side to move's point of view)."""

    lines: tuple[int, int, int, int] = (0, 1, 4, 12)
    """Value of a line still open for one side holding 0, 1, 2 or 3 of its beads."""
    threat_good: int = 30
    """A threat cell on a level that parity favours for its owner (odd for Red, even for Yellow)."""
    threat_bad: int = 12
    """A threat cell on the other levels."""
    stacked: int = 60
    """A threat cell with another of the same side's threat cells directly above it."""

    @property
    def uses_threats(self) -> bool:
        """True when the threat terms are on (Hard and Master); Medium counts lines only."""
        return bool(self.threat_good or self.threat_bad or self.stacked)


@dataclass(frozen=True, slots=True)
class Node:
    """A position as the search sees it (see the module docstring)."""

    own: int
    opp: int
    t_own: int
    t_opp: int
    score: int

    @classmethod
    def from_bits(cls, own: int, opp: int, weights: Weights) -> Node:
        """Build a node from the two bitboards with a full scan of the lines (done once, at the root)."""
        occupied = own | opp
        t_own = t_opp = 0
        score = 0
        for line in LINES:
            mine, theirs = (line & own).bit_count(), (line & opp).bit_count()
            if not theirs:
                score += weights.lines[mine]
                if mine == 3 and line & ~occupied:
                    t_own |= line & ~own
            elif not mine:
                score -= weights.lines[theirs]
                if theirs == 3 and line & ~occupied:
                    t_opp |= line & ~opp
        return cls(own, opp, t_own, t_opp, score)

    def child(self, bit: int, weights: Weights) -> Node:
        """The node after the side to move fills cell ``bit`` (which must not win the game)."""
        low = 1 << bit
        delta, threats = gain(REST[bit], self.own, self.opp, deltas_of(weights), kills_of(weights))
        return Node(self.opp, self.own | low, self.t_opp & ~low, self.t_own | threats, -(self.score + delta))

    @property
    def occupied(self) -> int:
        return self.own | self.opp


def deltas_of(weights: Weights) -> tuple[int, int, int, int]:
    """What a line's value grows by when its owner adds a bead to 0, 1, 2 (or 3) of theirs."""
    w = weights.lines
    return (w[1] - w[0], w[2] - w[1], w[3] - w[2], 0)


def kills_of(weights: Weights) -> tuple[int, int, int, int]:
    """What a line holding 0, 1, 2 or 3 of the opponent's beads is worth to them, lost when it is blocked."""
    w = weights.lines
    return (0, w[1], w[2], w[3])


def gain(
    rests: tuple[int, ...], own: int, opp: int, deltas: tuple[int, ...], kills: tuple[int, ...]
) -> tuple[int, int]:
    """``(score change, new threat cells)`` when the side owning ``own`` fills the cell whose lines' other
    cells are ``rests``: its open lines grow, the opponent's lines through the cell die."""
    delta = threats = 0
    for rest in rests:
        theirs = rest & opp
        if theirs:
            if not rest & own:
                delta += kills[theirs.bit_count()]
        else:
            mine = (rest & own).bit_count()
            delta += deltas[mine]
            if mine == 2:
                threats |= rest & ~own
    return delta, threats


def evaluate(node: Node, weights: Weights) -> int:
    """The static evaluation of ``node`` for the side to move (what the search scores at its horizon)."""
    return evaluate_bits(node.own | node.opp, node.t_own, node.t_opp, node.score, weights)


def evaluate_bits(occupied: int, t_own: int, t_opp: int, score: int, weights: Weights) -> int:
    """:func:`evaluate` on a node's parts, as the search holds them (``occupied`` = ``own | opp``)."""
    if not weights.uses_threats:
        return score
    # Under gravity the lower of two threats on a peg is met first; the higher one only counts if
    # the lower is somehow defused, so it is ignored here. Red moves when an even number of beads
    # is down, and in a filled-up ending Red gets the odd levels, Yellow the even ones.
    own_live = t_own & ~above(t_opp)
    opp_live = t_opp & ~above(t_own)
    if occupied.bit_count() & 1:
        own_good, opp_good = EVEN_LEVELS, ODD_LEVELS
    else:
        own_good, opp_good = ODD_LEVELS, EVEN_LEVELS
    return (
        score
        + weights.threat_good * ((own_live & own_good).bit_count() - (opp_live & opp_good).bit_count())
        + weights.threat_bad * ((own_live & ~own_good).bit_count() - (opp_live & ~opp_good).bit_count())
        + weights.stacked * ((own_live & (t_own >> 16)).bit_count() - (opp_live & (t_opp >> 16)).bit_count())
    )


def safe_moves(node: Node) -> tuple[int, str]:
    """``(cells, why)``: the cells worth searching at ``node`` and which shortcut chose them.

    ``why`` is ``"win"`` (the cells are the mover's playable threats), ``"block"`` (the opponent's
    single playable threat, which must be filled), ``"lost"`` (the opponent has two playable threats,
    which are the cells, or every playable cell lies directly beneath an opponent's threat), or
    ``"safe"`` (the playable cells not directly beneath an opponent's threat cell).
    """
    occupied = node.own | node.opp
    play = ((occupied << 16) | BOTTOM) & ~occupied & FULL
    if play & node.t_own:
        return play & node.t_own, "win"
    forced = play & node.t_opp
    if forced:
        return (forced, "lost") if forced & (forced - 1) else (forced, "block")
    safe = play & ~(node.t_opp >> 16)
    return (safe, "safe") if safe else (play, "lost")
