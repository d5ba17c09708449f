"""The analysis board's word on one position: what is proved of it and of every move, within a CPU budget.

:func:`board_verdict` asks the proof search (:mod:`games.engine.proof`) of each legal move, deepening one
round at a time over all the moves not yet settled (so the budget is shared between them): does the
opponent then win within 1, 3, 5, ... plies (the move loses), or lose within 2, 4, 6, ... (the move wins)?
A move whose horizon reaches the end of the board with neither is a proved draw. The depths are tried in
increasing order, so every distance reported is the exact game-theoretic one (the winner hurrying, the
loser resisting), as in the post-game analysis.

The position's verdict follows from its moves': a win when one move is proved to win (in the fewest
plies found; when one wins at once the others are not searched), a draw when no move can win and one
draws, a loss when every move loses (in the most plies), ``unknown`` otherwise; ``best`` is then the
CPU's choice among the moves not proved to lose.

The budget is CPU time (``clock`` defaults to :func:`time.thread_time`: the calling thread's, so other
threads of a server do not count), checked by the searches every thousand nodes or so; three quarters of
it go to the proofs and the rest to the best line or the CPU's choice.

Standard library only, like the rest of the engine.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from games.engine.cpu.levels import Level
from games.engine.cpu.player import think
from games.engine.position import Position
from games.engine.proof import Board, ProofBudgetSpent, Prover
from games.engine.values import Colour, Peg

PROOF_SHARE = 0.75
"""Share of the budget the proofs of the moves may spend; the rest is for the best line or the CPU."""
CPU_SHARE_END = 0.95
"""The CPU's choice must be made by this share of the budget (its search stops a little past its deadline)."""


class Verdict(StrEnum):
    """What is proved for the side to move (of a position, or of playing one move from it)."""

    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class MoveVerdict:
    """Playing ``peg``: ``verdict`` for the side that plays it, ``plies`` to the end counted from the
    position before it (1: it wins at once; 2: the opponent wins at once); None for a draw or unknown."""

    peg: Peg
    verdict: Verdict
    plies: int | None


@dataclass(frozen=True, slots=True)
class BoardVerdict:
    """The analysis board's answer for one position.

    Attributes:
        ply: moves played so far.
        to_move: the side to move (None once the game is over: then ``verdict`` is ``loss`` in 0 plies
            for the side that would move after a line, ``draw`` after a full board).
        verdict, plies: the position's result for the side to move and its distance (see the module).
        moves: every legal move's verdict, in peg-name order.
        best: the best move first, then the proved line that follows it while the budget lasts (win or
            loss); one move for a draw or an unknown position (the CPU's choice), none once over.
        depth: the horizon in plies after the move every unsettled move was searched to (0: none is).
        spent_s: CPU seconds spent, by ``clock``.
        stopped: the budget ran out before every move was settled.
    """

    ply: int
    to_move: Colour | None
    verdict: Verdict
    plies: int | None
    moves: tuple[MoveVerdict, ...]
    best: tuple[Peg, ...]
    depth: int
    spent_s: float
    stopped: bool

    @property
    def complete(self) -> bool:
        """Every move is settled: no larger budget can change this answer."""
        return all(move.verdict is not Verdict.UNKNOWN for move in self.moves)


@dataclass(slots=True)
class _Move:
    peg: Peg
    child: Board | None  # None: the move wins at once
    verdict: Verdict = Verdict.UNKNOWN
    plies: int | None = None
    rounds: int = field(default=0)

    def settle(self, verdict: Verdict, plies: int | None) -> None:
        self.verdict, self.plies = verdict, plies


def _finished(position: Position, spent_s: float) -> BoardVerdict:
    outcome = position.outcome
    assert outcome is not None
    verdict = Verdict.DRAW if outcome.winner is None else Verdict.LOSS
    return BoardVerdict(position.ply, None, verdict, 0 if verdict is Verdict.LOSS else None, (), (), 0, spent_s,
                        False)


def _deepen(prover: Prover, moves: list[_Move]) -> None:
    """Settle the moves round by round until all are settled.

    Raises:
        ProofBudgetSpent: the budget ran out (what was settled stays settled).
    """
    round_ = 0
    while any(move.verdict is Verdict.UNKNOWN for move in moves):
        for move in moves:
            if move.verdict is not Verdict.UNKNOWN or move.child is None:
                continue
            child = move.child
            if prover.wins(*child.args, 2 * round_ + 1):
                move.settle(Verdict.LOSS, 2 * round_ + 2)
            elif prover.loses(*child.args, 2 * round_ + 2):
                move.settle(Verdict.WIN, 2 * round_ + 3)
            elif 2 * round_ + 2 >= child.empties:
                move.settle(Verdict.DRAW, None)
            move.rounds = round_ + 1
        round_ += 1


def _verdict(moves: list[_Move]) -> tuple[Verdict, int | None]:
    wins = [m.plies for m in moves if m.verdict is Verdict.WIN and m.plies is not None]
    if wins:
        return Verdict.WIN, min(wins)
    if any(m.verdict is Verdict.UNKNOWN for m in moves):
        return Verdict.UNKNOWN, None
    if any(m.verdict is Verdict.DRAW for m in moves):
        return Verdict.DRAW, None
    return Verdict.LOSS, max(m.plies or 0 for m in moves)


def _proved_line(prover: Prover, first: _Move, plies: int, *, won: bool) -> list[Peg]:
    """``first`` and the proved line after it, the winner hurrying and the loser resisting, as far as the
    budget goes (``won``: the side playing ``first`` wins)."""
    line = [first.peg]
    current, left, winner_moves = first.child, plies - 1, not won
    try:
        while current is not None and left > 0:
            if winner_moves:
                cell = prover.winning_move(*current.args, left)
            else:
                # Every move loses: the proof search skips those beneath a threat, so one may be all there is.
                cell = prover.escape(*current.args, max(left - 2, 0))
                cell = current.any_move() if cell is None else cell
            if cell is None:
                break
            low = 1 << cell
            peg = Peg.from_index(cell & 15)
            line.append(peg)
            current = None if low & current.t_own else current.child_at(low)
            left -= 1
            winner_moves = not winner_moves
    except ProofBudgetSpent:
        pass
    return line


def _cpu_choice(position: Position, moves: list[_Move], budget_s: float, clock: Callable[[], float]) -> Peg:
    """The CPU's (Master's) move, unless the proofs say it loses and another move does not."""
    open_moves = [m.peg for m in moves if m.verdict is not Verdict.LOSS]
    budget_ms = max(1, int(budget_s * 1000))
    peg = think(position, Level.MASTER, budget_ms=budget_ms, seed=0, clock=clock).peg
    if open_moves and peg not in open_moves:
        return open_moves[0]
    return peg


def board_verdict(
    position: Position, *, budget_s: float, clock: Callable[[], float] = time.thread_time
) -> BoardVerdict:
    """What the engine proves of ``position`` and of each of its moves within ``budget_s`` of ``clock``."""
    start = clock()
    if position.to_move is None:
        return _finished(position, clock() - start)
    board = Board.of(position)
    moves: list[_Move] = []
    for peg in position.legal_pegs():
        low = board.landing(peg)
        if low & board.t_own:
            moves.append(_Move(peg, None, Verdict.WIN, 1))
        else:
            moves.append(_Move(peg, board.child_at(low)))
    prover = Prover(deadline=start + budget_s * PROOF_SHARE, clock=clock)
    stopped = False
    try:
        if not any(move.child is None for move in moves):  # a win at once needs no other move's proof
            _deepen(prover, moves)
    except ProofBudgetSpent:
        stopped = True
    unsettled = [m.rounds for m in moves if m.verdict is Verdict.UNKNOWN]
    depth = 2 * min(unsettled) if unsettled else 0
    verdict, plies = _verdict(moves)
    prover.deadline = start + budget_s
    best: list[Peg]
    if verdict in (Verdict.WIN, Verdict.LOSS) and plies is not None:
        pick = min if verdict is Verdict.WIN else max
        first = pick((m for m in moves if m.plies is not None and m.verdict is verdict), key=lambda m: m.plies or 0)
        best = _proved_line(prover, first, plies, won=verdict is Verdict.WIN)
    elif verdict is Verdict.DRAW:
        best = [next(m.peg for m in moves if m.verdict is Verdict.DRAW)]
    else:
        best = [_cpu_choice(position, moves, max(0.0, start + budget_s * CPU_SHARE_END - clock()), clock)]
    return BoardVerdict(
        ply=position.ply, to_move=position.to_move, verdict=verdict, plies=plies,
        moves=tuple(MoveVerdict(m.peg, m.verdict, m.plies) for m in moves), best=tuple(best), depth=depth,
        spent_s=clock() - start, stopped=stopped,
    )
