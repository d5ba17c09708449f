"""Negamax alpha-beta over raw bitboards: the heuristic search and the exact endgame solver.

The nodes, their incremental update (:func:`~games.engine.cpu.evaluation.gain`), the evaluation and
the scores are :mod:`games.engine.cpu.evaluation`'s; here is the search over them, its
transposition and history tables and its move ordering, written out in one loop per search for speed
(a function call per child would cost more than the ordering itself). The heuristic search returns
a score (``WIN - p`` for a win at ply ``p``); the solver 1 / 0 / -1 (win / draw / loss for the side
to move).

Before any move is searched, a node applies the forced-move shortcuts
(:func:`~games.engine.cpu.evaluation.safe_moves`, inlined): a playable threat of its own is a win;
two playable threats of the opponent are a loss; one must be blocked (and that single reply is
searched without spending depth); a bead dropped directly beneath an opponent's threat cell hands
them the win, so such moves are never searched.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from games.engine.bitboard import BOTTOM, FULL, PEG_MASKS
from games.engine.cpu.evaluation import (
    INFINITY,
    MATE_BOUND,
    WIN,
    Weights,
    deltas_of,
    evaluate_bits,
    gain,
    kills_of,
)
from games.engine.cpu.tables import MAPS_BACK, REST, canonical
from games.engine.symmetry import PEG_PERMUTATIONS

_EXACT, _LOWER, _UPPER = 0, 1, 2
_CHECK_INTERVAL = 256
"""Nodes between two looks at the clock: cheap, and well under a millisecond of search."""
_TT_MIN_DEPTH = 2
"""Nodes closer than this to the horizon skip the table: canonicalising costs more than it saves there."""
_TT_LIMIT = 1_500_000
_HISTORY_LIMIT = 1 << 20


class SearchTimeout(Exception):
    """Raised inside the search when the time or node budget is spent; the caller keeps what it has."""


class Searcher:
    """One move's search: its clock, node counter, transposition table and history table.

    Not thread-safe and not reusable across positions of different games; make one per decision.
    """

    def __init__(
        self,
        weights: Weights,
        *,
        deadline: float,
        max_nodes: int | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.weights = weights
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.clock = clock
        self.nodes = 0
        self.table: dict[int, tuple[int, int, int, int]] = {}
        self.solved: dict[int, tuple[int, int, int]] = {}
        self.history = [0] * 64
        self._check_at = _CHECK_INTERVAL
        self.deltas = deltas_of(weights)
        self.kills = kills_of(weights)

    def check(self) -> None:
        """Raise :class:`SearchTimeout` once the clock passes the deadline or the node budget is spent."""
        self._check_at = self.nodes + _CHECK_INTERVAL
        if self.clock() >= self.deadline or (self.max_nodes is not None and self.nodes >= self.max_nodes):
            raise SearchTimeout

    def out_of_time(self) -> bool:
        """True once the deadline has passed (the node budget is not consulted)."""
        return self.clock() >= self.deadline

    # -- heuristic search -------------------------------------------------------------------------

    def negamax(
        self, own: int, opp: int, t_own: int, t_opp: int, score: int, depth: int, alpha: int, beta: int, ply: int
    ) -> int:
        """The value of the node for the side to move, searched ``depth`` plies deep (fail-soft).

        Raises:
            SearchTimeout: the budget ran out; the partial result must be discarded.
        """
        self.nodes += 1
        if self.nodes >= self._check_at:
            self.check()
        occupied = own | opp
        play = ((occupied << 16) | BOTTOM) & ~occupied & FULL
        if play & t_own:
            return WIN - ply - 1
        if not play:
            return 0
        forced = play & t_opp
        if forced:
            if forced & (forced - 1):
                return ply + 2 - WIN
            moves = forced & ~(t_opp >> 16)
        else:
            moves = play & ~(t_opp >> 16)
        if not moves:
            return ply + 2 - WIN
        # After a safe move the opponent cannot win at once, and this side cannot win before its
        # next turn: the value lies between a loss at ply + 4 and a win at ply + 3.
        if alpha < ply + 4 - WIN:
            alpha = ply + 4 - WIN
            if alpha >= beta:
                return alpha
        if beta > WIN - ply - 3:
            beta = WIN - ply - 3
            if alpha >= beta:
                return beta
        rests = REST
        if not moves & (moves - 1):
            # A forced move costs no depth: searching it is what makes threats visible at the horizon.
            bit = moves.bit_length() - 1
            delta, threats = gain(rests[bit], own, opp, self.deltas, self.kills)
            return -self.negamax(
                opp, own | moves, t_opp & ~moves, t_own | threats, -(score + delta), depth, -beta, -alpha, ply + 1
            )
        if depth <= 0:
            return evaluate_bits(occupied, t_own, t_opp, score, self.weights)

        table_move = -1
        key = symmetry = 0
        if depth >= _TT_MIN_DEPTH:
            key, symmetry = canonical(own, opp)
            entry = self.table.get(key)
            if entry is not None:
                e_depth, e_flag, value, e_peg = entry
                if e_depth >= depth:
                    if value > MATE_BOUND:
                        value -= ply
                    elif value < -MATE_BOUND:
                        value += ply
                    if (
                        e_flag == _EXACT
                        or (e_flag == _LOWER and value >= beta)
                        or (e_flag == _UPPER and value <= alpha)
                    ):
                        return value
                if e_peg >= 0:
                    landing = PEG_MASKS[MAPS_BACK[symmetry][e_peg]] & ~occupied
                    landing &= -landing
                    if landing & moves:
                        table_move = landing.bit_length() - 1

        history = self.history
        deltas, kills = self.deltas, self.kills
        children = []
        rest_of = moves
        while rest_of:
            low = rest_of & -rest_of
            rest_of ^= low
            bit = low.bit_length() - 1
            delta, threats = gain(rests[bit], own, opp, deltas, kills)
            order = delta + history[bit]
            if threats:
                order += 8 * threats.bit_count()
                if threats & (play | (low << 16)):
                    order += 20  # a playable threat forces the reply
            if (low << 16) & t_own:
                order -= 30  # drops beneath our own threat: lets them block it
            if bit == table_move:
                order += 1 << 30
            children.append((order, bit, low, delta, threats))
        children.sort(reverse=True)

        original_alpha = alpha
        best = -INFINITY
        best_bit = -1
        child_depth = depth - 1
        first = True
        for _, bit, low, delta, threats in children:
            c_opp = own | low
            c_t_own = t_opp & ~low
            c_t_opp = t_own | threats
            c_score = -(score + delta)
            if first:
                value = -self.negamax(opp, c_opp, c_t_own, c_t_opp, c_score, child_depth, -beta, -alpha, ply + 1)
                first = False
            else:
                value = -self.negamax(opp, c_opp, c_t_own, c_t_opp, c_score, child_depth, -alpha - 1, -alpha, ply + 1)
                if alpha < value < beta:
                    value = -self.negamax(opp, c_opp, c_t_own, c_t_opp, c_score, child_depth, -beta, -alpha, ply + 1)
            if value > best:
                best = value
                best_bit = bit
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        history[bit] += depth * depth
                        if history[bit] > _HISTORY_LIMIT:
                            self._age_history()
                        break

        if depth >= _TT_MIN_DEPTH:
            flag = _LOWER if best >= beta else _UPPER if best <= original_alpha else _EXACT
            stored = best + ply if best > MATE_BOUND else best - ply if best < -MATE_BOUND else best
            if len(self.table) >= _TT_LIMIT:
                self.table.clear()
            self.table[key] = (depth, flag, stored, PEG_PERMUTATIONS[symmetry][best_bit & 15])
        return best

    def _age_history(self) -> None:
        self.history = [value >> 2 for value in self.history]

    # -- exact solver -------------------------------------------------------------------------------

    def solve(self, own: int, opp: int, t_own: int, t_opp: int, alpha: int, beta: int) -> int:
        """The game-theoretic value (1 win, 0 draw, -1 loss) for the side to move, within ``(alpha, beta)``.

        Searches to the end of the game; only sensible with few empty cells.

        Raises:
            SearchTimeout: the budget ran out.
        """
        self.nodes += 1
        if self.nodes >= self._check_at:
            self.check()
        occupied = own | opp
        play = ((occupied << 16) | BOTTOM) & ~occupied & FULL
        if play & t_own:
            return 1
        if not play:
            return 0
        forced = play & t_opp
        if forced:
            if forced & (forced - 1):
                return -1
            moves = forced & ~(t_opp >> 16)
        else:
            moves = play & ~(t_opp >> 16)
        if not moves:
            return -1
        rests = REST
        deltas, kills = self.deltas, self.kills
        if not moves & (moves - 1):
            bit = moves.bit_length() - 1
            _, threats = gain(rests[bit], own, opp, deltas, kills)
            return -self.solve(opp, own | moves, t_opp & ~moves, t_own | threats, -beta, -alpha)

        key = (own << 64) | opp
        entry = self.solved.get(key)
        table_move = -1
        if entry is not None:
            e_flag, value, table_move = entry
            if e_flag == _EXACT or (e_flag == _LOWER and value >= beta) or (e_flag == _UPPER and value <= alpha):
                return value

        children = []
        rest_of = moves
        while rest_of:
            low = rest_of & -rest_of
            rest_of ^= low
            bit = low.bit_length() - 1
            delta, threats = gain(rests[bit], own, opp, deltas, kills)
            order = delta
            if threats:
                order += 8 * threats.bit_count()
                if threats & (play | (low << 16)):
                    order += 20
            if (low << 16) & t_own:
                order -= 30
            if bit == table_move:
                order += 1 << 30
            children.append((order, bit, low, threats))
        children.sort(reverse=True)

        original_alpha = alpha
        best = -2
        best_bit = -1
        for _, bit, low, threats in children:
            value = -self.solve(opp, own | low, t_opp & ~low, t_own | threats, -beta, -alpha)
            if value > best:
                best = value
                best_bit = bit
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        flag = _LOWER if best >= beta else _UPPER if best <= original_alpha else _EXACT
        if len(self.solved) >= _TT_LIMIT:
            self.solved.clear()
        self.solved[key] = (flag, best, best_bit)
        return best
