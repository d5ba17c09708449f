"""Puzzles: positions where the side to move wins by force, and judging a solver's moves against the proofs.

Standard library only. A puzzle is a position (a game record up to it) and the length in plies of the
side to move's shortest forced win: 3, 5, 7 or 9 (:data:`PUZZLE_PLIES`). A position with a win in 1 is
never a puzzle (its shortest win is 1).

Solving (:func:`judge_attempt`): the solver plays the winning side; after each of their moves the
defender answers with the defence that lasts longest (:func:`longest_defence`). Any move that keeps a
forced win within the plies that remain is right, not only the engine's first choice; a move that wins
more slowly than that, or not at all, fails the attempt. The defender's replies depend only on the
solver's moves, so an attempt is the list of the solver's moves alone and can be judged afresh from the
start on every request.

Every answer comes from :class:`games.engine.proof.Prover` (exact, no heuristic).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum

from games.engine.bitboard import threat_cells
from games.engine.errors import EngineError, gettext_noop
from games.engine.position import Position
from games.engine.proof import Prover
from games.engine.values import Cell, Colour, Peg

PUZZLE_PLIES: tuple[int, ...] = (3, 5, 7, 9)
"""The lengths a puzzle's shortest win may have (win in 3, 5, 7 or 9 plies)."""

MAX_PLIES = PUZZLE_PLIES[-1]


class AttemptError(EngineError):
    """An attempt that is not a list of moves from the puzzle's position: empty, or going on past its end."""

    code = "bad_request"


class Verdict(StrEnum):
    """Where an attempt stands after the solver's last move."""

    CONTINUE = "continue"
    """Every move so far keeps the win; the defender has replied (``reply``)."""
    SOLVED = "solved"
    """The solver's last move completed a line of four."""
    FAILED = "failed"
    """A move let the win go, or slowed it beyond the plies that were left."""


@dataclass(frozen=True, slots=True)
class Judgement:
    """The verdict on an attempt, with what may be shown for it."""

    verdict: Verdict
    reply: Peg | None = None
    """``CONTINUE``: the defender's answer to the solver's last move (the longest defence)."""
    refutation: tuple[Peg, ...] = ()
    """``FAILED``: what the defender plays after the wrong move: its own forced win when it has one within
    :data:`MAX_PLIES` (with the solver's longest defence between), else one move that escapes the loss in
    time. Empty when the wrong move filled the board (a draw)."""
    solution: tuple[Peg, ...] = ()
    """``FAILED`` and ``SOLVED``: a winning line from the position where the solver went wrong (``FAILED``)
    or from the puzzle's start (``SOLVED``): winning move, longest defence, ... up to the line of four."""
    line: tuple[Peg, ...] = ()
    """The moves played in the attempt, the solver's and the defender's replies in turn (the wrong move
    last when it failed)."""
    four: tuple[Cell, ...] = ()
    """``SOLVED``: the cells of the line of four the last move completed."""


def puzzle_board(position: Position) -> tuple[int, int, int, int]:
    """``(own, opp, t_own, t_opp)`` of the side to move, as :class:`Prover` takes them.

    Raises:
        ValueError: the game is over.
    """
    colour = position.to_move
    if colour is None:
        raise ValueError("the game is over: nobody is to move")
    own, opp = position.bits(colour), position.bits(colour.other)
    occupied = own | opp
    return own, opp, threat_cells(own, occupied), threat_cells(opp, occupied)


def shortest_win(position: Position, *, limit: int = MAX_PLIES, prover: Prover | None = None) -> int | None:
    """The length in plies (odd) of the side to move's shortest forced win, if it is at most ``limit``; else None.

    None too when the game is over. Raises :class:`~games.engine.proof.ProofBudgetSpent` if ``prover``'s
    budget runs out.
    """
    if position.to_move is None:
        return None
    prover = prover or Prover()
    board = puzzle_board(position)
    for depth in range(1, limit + 1, 2):
        if prover.wins(*board, depth):
            return depth
    return None


def keeps_win(position: Position, peg: Peg, *, within: int, prover: Prover | None = None) -> bool:
    """Whether the side to move, playing ``peg``, still forces a line within ``within`` plies (this move
    counted: a move that completes a line keeps any win).

    Raises:
        PegFull, GameOver: ``peg`` cannot be played.
    """
    mover = position.to_move
    after = position.play(peg)
    if after.outcome is not None:
        return after.outcome.winner is mover
    if within < 3:
        return False
    return (prover or Prover()).loses(*puzzle_board(after), within - 1)


def winning_moves(position: Position, *, within: int, prover: Prover | None = None) -> list[Peg]:
    """Every peg that keeps a forced win within ``within`` plies (see :func:`keeps_win`), in peg-name order."""
    prover = prover or Prover()
    return [peg for peg in position.legal_pegs() if keeps_win(position, peg, within=within, prover=prover)]


def longest_defence(position: Position, *, within: int, prover: Prover | None = None) -> tuple[Peg, int]:
    """The defender's move after which the attacker's shortest win is longest, and that win's length.

    The defender is to move in ``position``, which must be lost within ``within`` plies. Ties go to the
    first peg in peg-name order, so the defence is the same on every call.

    Raises:
        ValueError: the position is not lost within ``within`` plies (some move escapes).
    """
    prover = prover or Prover()
    best: tuple[Peg, int] | None = None
    for peg in position.legal_pegs():
        after = position.play(peg)
        plies = None if after.outcome is not None else shortest_win(after, limit=within - 1, prover=prover)
        if plies is None:
            raise ValueError(f"{peg} escapes: the position is not lost within {within} plies")
        if best is None or plies > best[1]:
            best = (peg, plies)
    if best is None:
        raise ValueError("the defender has no move")
    return best


def winning_line(position: Position, *, plies: int, prover: Prover | None = None) -> tuple[Peg, ...]:
    """A forced win of the side to move in at most ``plies`` plies, against the longest defence: the first
    winning move in peg-name order each turn (the line a failed attempt is shown).

    Raises:
        ValueError: the side to move has no win within ``plies``.
    """
    prover = prover or Prover()
    line: list[Peg] = []
    while True:
        moves = winning_moves(position, within=plies, prover=prover)
        if not moves:
            raise ValueError(f"no forced win within {plies} plies")
        position = position.play(moves[0])
        line.append(moves[0])
        if position.outcome is not None:
            return tuple(line)
        reply, plies = longest_defence(position, within=plies - 1, prover=prover)
        position = position.play(reply)
        line.append(reply)


def judge_attempt(position: Position, *, plies: int, moves: Sequence[Peg], prover: Prover | None = None) -> Judgement:
    """Judge the solver's ``moves`` (in order) on the puzzle at ``position`` whose shortest win is ``plies``.

    The defender's replies between them are the longest defences, recomputed here.

    Raises:
        AttemptError: no moves, or moves after the attempt was already solved or failed.
        PegFull: a move on a full peg (its ``ply`` counts the attempt's plies, the replies included).
    """
    if not moves:
        raise AttemptError(gettext_noop("An attempt has at least one move."))
    prover = prover or Prover()
    line: list[Peg] = []
    left = plies
    for index, peg in enumerate(moves):
        try:
            after = position.play(peg)
        except EngineError as error:
            error.ply = len(line)
            raise
        line.append(peg)
        last = index == len(moves) - 1
        if after.outcome is not None and after.outcome.winner is position.to_move:
            if not last:
                raise AttemptError(gettext_noop("The puzzle was solved before the last of these moves."))
            four = after.outcome.line or ()
            return Judgement(Verdict.SOLVED, line=tuple(line), solution=tuple(line), four=tuple(four))
        if not keeps_win(position, peg, within=left, prover=prover):
            if not last:
                raise AttemptError(gettext_noop("The attempt failed before the last of these moves."))
            return Judgement(
                Verdict.FAILED, line=tuple(line), refutation=_refutation(after, left, prover),
                solution=winning_line(position, plies=left, prover=prover),
            )
        reply, left = longest_defence(after, within=left - 1, prover=prover)
        position = after.play(reply)
        line.append(reply)
        if last:
            return Judgement(Verdict.CONTINUE, reply=reply, line=tuple(line))
    raise AssertionError("unreachable: the loop returns on the last move")  # pragma: no cover


def _refutation(after: Position, left: int, prover: Prover) -> tuple[Peg, ...]:
    """What the defender plays after a wrong move (see :attr:`Judgement.refutation`)."""
    if after.outcome is not None:
        return ()
    if shortest_win(after, prover=prover) is not None:
        return winning_line(after, plies=MAX_PLIES, prover=prover)
    board = puzzle_board(after)
    cell = prover.escape(*board, max(left - 1, 1))
    if cell is None:  # pragma: no cover - the move was proved not to keep the win, so an escape exists
        return (after.legal_pegs()[0],)
    return (Peg.from_index(cell & 15),)


@dataclass(frozen=True, slots=True)
class Found:
    """A puzzle found in a game: the position before move ``ply + 1`` and its shortest win."""

    ply: int
    record: str
    to_move: Colour
    plies: int


def find_puzzles(record: str, *, prover: Prover | None = None) -> Iterator[Found]:
    """The puzzles of a game: each position whose side to move has a shortest win of 3 to 9 plies, shorter
    than the one that side had on its previous turn (if any). So a winning sequence played out gives one
    puzzle per length (win in 9, then its win in 7, ...), and a win merely kept waiting gives none more.

    Raises:
        BadPeg, PegFull, GameOver: ``record`` breaks a rule.
    """
    prover = prover or Prover()
    position = Position.initial()
    previous: list[int | None] = [None, None]  # by side: its shortest win on its previous turn
    for ply, peg in enumerate([*Position.from_record(record).moves, None]):
        colour = position.to_move
        if colour is None:
            return
        plies = shortest_win(position, prover=prover)
        side = ply & 1
        before = previous[side]
        if plies in PUZZLE_PLIES and (before is None or plies < before):
            yield Found(ply, position.record(), colour, plies)
        previous[side] = plies
        if peg is None:
            return
        position = position.play(peg)
