"""Choosing a move: the shortcuts every level shares, the casual levels and the searching levels' root.

Determinism: all randomness comes from one ``random.Random(seed)``. With a seed the search is also
bounded by a node budget (``budget_ms * NODES_PER_MS``) that, on the reference machine, runs out well
before the clock does, so the same seed replays the same game; the clock stays a hard ceiling, and a
machine too slow or too busy to reach the node budget in time may then play differently. Without a
seed only the clock bounds the search.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from games.engine.bitboard import CELLS, iter_bits
from games.engine.cpu.evaluation import INFINITY, MATE_BOUND, Node, gain, safe_moves
from games.engine.cpu.levels import Level, LevelSettings
from games.engine.cpu.search import Searcher, SearchTimeout
from games.engine.cpu.tables import LINE_COUNT, REST, playable
from games.engine.position import Position
from games.engine.values import Colour, Peg

NODES_PER_MS = 80
"""Node budget per millisecond when a seed is given (about half of the speed measured on one core)."""

SOLVER_FRACTION = 0.5
"""Share of the budget the exact solver may use before the heuristic search takes over."""


@dataclass(frozen=True, slots=True)
class Decision:
    """A chosen move and how it was found."""

    peg: Peg
    reason: str
    """``win``, ``block``, ``forced`` (a single move does not lose at once), ``solved``
    (the exact solver proved the result), ``search`` or ``casual`` (levels 1-2)."""
    score: int | None = None
    """The search's value for the mover (wins are above ``MATE_BOUND``), when there was a search."""
    depth: int = 0
    """The deepest completed iteration of the search (0: no search)."""
    nodes: int = 0
    """Nodes visited by the search and the solver."""
    ms: float = 0.0
    """Wall time spent, in milliseconds."""


def think(
    position: Position,
    level: Level,
    *,
    budget_ms: int | None = None,
    seed: int | None = None,
    max_nodes: int | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Decision:
    """Choose a move for the player to move in ``position``, playing at ``level``.

    ``budget_ms`` defaults to the level's; ``max_nodes`` overrides the node budget that a ``seed``
    implies (``budget_ms * NODES_PER_MS``); ``clock`` is the time source (seconds, monotonic).

    Raises:
        ValueError: the game is over.
    """
    if position.to_move is None:
        raise ValueError("The game is over: there is no move to choose.")
    settings = level.settings
    budget = max(1, settings.budget_ms if budget_ms is None else budget_ms)
    start = clock()
    rng = random.Random(seed)
    own, opp = position.red, position.yellow
    if position.to_move is Colour.YELLOW:
        own, opp = opp, own
    node = Node.from_bits(own, opp, settings.weights)
    if level <= Level.EASY:
        bit = _casual_move(node, level, rng)
        return _decided(bit, "casual", start, clock)
    cells, why = safe_moves(node)
    if why != "safe" or not cells & (cells - 1):
        reason = "forced" if why in {"safe", "lost"} else why
        return _decided(rng.choice(iter_bits(cells)), reason, start, clock)
    if max_nodes is None and seed is not None:
        max_nodes = budget * NODES_PER_MS
    searcher = Searcher(settings.weights, deadline=start + budget / 1000, max_nodes=max_nodes, clock=clock)
    root = _Root(node, iter_bits(cells), settings, searcher, rng, start=start, budget_ms=budget)
    return root.decide()


def analyse(position: Position, *, budget_ms: int, level: Level = Level.MASTER) -> Decision:
    """Iterative deepening over every move that does not lose at once, for the whole budget.

    For benchmarks: unlike :func:`think` there are no shortcuts, no exact solver and no early stop,
    so ``depth`` is the deepest iteration completed within ``budget_ms`` and ``nodes / ms`` the speed.

    Raises:
        ValueError: the game is over.
    """
    if position.to_move is None:
        raise ValueError("The game is over: there is no move to choose.")
    settings = replace(level.settings, solve_empties=0)
    start = time.perf_counter()
    node = Node.from_bits(position.bits(position.to_move), position.bits(position.to_move.other), settings.weights)
    cells, _ = safe_moves(node)
    searcher = Searcher(settings.weights, deadline=start + budget_ms / 1000)
    root = _Root(node, iter_bits(cells), settings, searcher, random.Random(0), start=start, budget_ms=budget_ms)
    root.soft_fraction = 1.0
    return root.decide()


def sees_win(position: Position, colour: Colour, *, level: Level, max_nodes: int = 20_000) -> bool:
    """Whether the CPU playing ``colour`` at ``level`` sees itself winning ``position``: a win on the spot,
    a position where every move of the opponent loses at once, or (for the searching levels, 3 and up)
    its search, bounded by ``max_nodes`` and seeded so that the answer is reproducible, proving a win.
    How the CPU answers a draw offer: it declines only when this is true.
    """
    mover = position.to_move
    if mover is None:
        return False
    settings = level.settings
    node = Node.from_bits(position.bits(mover), position.bits(mover.other), settings.weights)
    _, why = safe_moves(node)
    if why in {"win", "lost"}:
        return (why == "win") == (mover is colour)
    if level <= Level.EASY:
        return False
    score = think(position, level, seed=0, max_nodes=max_nodes).score
    if score is None:
        return False
    return score > MATE_BOUND if mover is colour else score < -MATE_BOUND


def _decided(bit: int, reason: str, start: float, clock: Callable[[], float]) -> Decision:
    return Decision(Peg.from_index(bit & 15), reason, ms=(clock() - start) * 1000)


# -- levels 1 and 2 --------------------------------------------------------------------------------


def _casual_move(node: Node, level: Level, rng: random.Random) -> int:
    """A one-move-deep choice with noise: Beginner misses wins and blocks on purpose, Easy never does."""
    play = playable(node.occupied)
    wins, blocks = play & node.t_own, play & node.t_opp
    beginner = level is Level.BEGINNER
    if wins and (not beginner or rng.random() < 0.6):
        return rng.choice(iter_bits(wins))
    if blocks and (not beginner or rng.random() < 0.5):
        return rng.choice(iter_bits(blocks))
    deltas, kills = (1, 3, 8, 0), (0, 1, 4, 12)
    noise = 4.0 if beginner else 1.5
    best_bit, best_value = -1, -float("inf")
    for bit in iter_bits(play):
        delta, threats = gain(REST[bit], node.own, node.opp, deltas, kills)
        value = delta + LINE_COUNT[bit] / 2 + 3 * threats.bit_count() + rng.gauss(0.0, noise)
        # Easy spots a drop beneath your threat only half the time; Beginner never looks.
        if not beginner and (1 << bit << 16) & node.t_opp and rng.random() < 0.5:
            value -= 100
        if value > best_value:
            best_bit, best_value = bit, value
    return best_bit


# -- levels 3 to 5 ---------------------------------------------------------------------------------


class _Root:
    """The root of one search: the exact solver when it applies, then iterative deepening."""

    def __init__(
        self,
        node: Node,
        candidates: list[int],
        settings: LevelSettings,
        searcher: Searcher,
        rng: random.Random,
        *,
        start: float,
        budget_ms: int,
    ) -> None:
        self.node = node
        self.settings = settings
        self.searcher = searcher
        self.rng = rng
        self.start = start
        self.budget_ms = budget_ms
        self.empties = CELLS - node.occupied.bit_count()
        # No new iteration once this share of what is left is spent: the next iteration would take
        # several times as long and most likely not finish.
        self.soft_fraction = settings.soft_fraction
        rng.shuffle(candidates)  # ties in the ordering below are broken at random
        self.candidates = sorted(candidates, key=self._order, reverse=True)

    def _order(self, bit: int) -> int:
        delta, threats = gain(REST[bit], self.node.own, self.node.opp, self.searcher.deltas, self.searcher.kills)
        return delta + 8 * threats.bit_count()

    def decide(self) -> Decision:
        if self.settings.solve_empties and self.empties <= self.settings.solve_empties:
            decided = self._solve()
            if decided is not None:
                return decided
        return self._deepen()

    def _finish(self, bit: int, reason: str, score: int | None, depth: int) -> Decision:
        ms = (self.searcher.clock() - self.start) * 1000
        return Decision(Peg.from_index(bit & 15), reason, score, depth, self.searcher.nodes, ms)

    def _solve(self) -> Decision | None:
        """Solve the position exactly within part of the budget; narrow the candidates on the way.

        Returns a decision when a win is proven or only one drawing move is left; None to continue
        with the heuristic search (over the drawing moves when some are proven, else over the moves
        not proven lost).
        """
        searcher = self.searcher
        deadline, max_nodes = searcher.deadline, searcher.max_nodes
        searcher.deadline = self.start + self.budget_ms * SOLVER_FRACTION / 1000
        if max_nodes is not None:
            searcher.max_nodes = int(max_nodes * SOLVER_FRACTION)
        draws: list[int] = []
        lost: list[int] = []
        try:
            for bit in self.candidates:
                child = self.node.child(bit, self.settings.weights)
                value = -searcher.solve(child.own, child.opp, child.t_own, child.t_opp, -1, 1)
                if value > 0:
                    return self._finish(bit, "solved", MATE_BOUND, self.empties)
                (draws if value == 0 else lost).append(bit)
        except SearchTimeout:
            pass
        finally:
            searcher.deadline, searcher.max_nodes = deadline, max_nodes
        if len(draws) + len(lost) == len(self.candidates):
            if len(draws) == 1:
                return self._finish(draws[0], "solved", 0, self.empties)
            if not draws:
                return None  # lost anyway: let the search pick the most stubborn defence
            self.candidates = draws
        elif lost:
            self.candidates = [bit for bit in self.candidates if bit not in lost]
        return None

    def _deepen(self) -> Decision:
        """Iterative deepening over the candidates; the last completed iteration decides."""
        ordered = self.candidates
        chosen, score, depth_done = ordered[0], None, 0
        max_depth = min(self.settings.max_depth, self.empties)
        since, nodes_before = self.searcher.clock(), self.searcher.nodes
        for depth in range(1, max_depth + 1):
            results: list[tuple[int, int]] = []
            try:
                self._iteration(ordered, depth, results)
            except SearchTimeout:
                improved = self._partial_best(results)
                if improved is not None:
                    chosen, score = improved
                break
            best = max(value for _, value in results)
            ties = [bit for bit, value in results if value == best]
            chosen, score, depth_done = self.rng.choice(ties), best, depth
            rest = sorted((item for item in results if item[1] != best), key=lambda item: -item[1])
            ordered = ties + [bit for bit, _ in rest]
            if abs(best) > MATE_BOUND or self._soft_limit_reached(since, nodes_before):
                break
        return self._finish(chosen, "search", score, depth_done)

    def _iteration(self, ordered: list[int], depth: int, results: list[tuple[int, int]]) -> None:
        """Search every candidate ``depth`` plies deep, appending ``(cell, value)`` to ``results``.

        The first move gets an open window; the others a window just below the best value so far,
        which tells moves worth exactly as much (ties, chosen between at random) from worse ones.
        """
        searcher = self.searcher
        best = -INFINITY
        for bit in ordered:
            c = self.node.child(bit, self.settings.weights)
            args = (c.own, c.opp, c.t_own, c.t_opp, c.score, depth - 1)
            if best == -INFINITY:
                value = -searcher.negamax(*args, -INFINITY, INFINITY, 1)
            else:
                value = -searcher.negamax(*args, -best, 1 - best, 1)
                if value >= best:
                    value = -searcher.negamax(*args, -INFINITY, 1 - best, 1)
            results.append((bit, value))
            best = max(best, value)

    def _partial_best(self, results: list[tuple[int, int]]) -> tuple[int, int] | None:
        """A move of an unfinished iteration proven better than the previous best (searched first)."""
        if len(results) < 2:
            return None
        best = max(value for _, value in results)
        if best <= results[0][1]:
            return None
        ties = [bit for bit, value in results if value == best]
        return self.rng.choice(ties), best

    def _soft_limit_reached(self, since: float, nodes_before: int) -> bool:
        """True when the search since ``since`` (``nodes_before`` nodes in) used its share of what was left."""
        searcher = self.searcher
        if searcher.max_nodes is not None:
            return searcher.nodes - nodes_before >= (searcher.max_nodes - nodes_before) * self.soft_fraction
        return searcher.clock() - since >= (searcher.deadline - since) * self.soft_fraction
