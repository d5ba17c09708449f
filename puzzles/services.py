"""Changes to puzzles: adding puzzles (mined, or from a game's analysis), judging an attempt and rating it
exactly once, and choosing the daily puzzle.

Each function is one transaction. Judging is pure (:func:`games.engine.puzzle.judge_attempt`); what is
written is the player's first finished attempt at a puzzle and the two ratings it moved.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import date, datetime

from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from common.errors import Refused
from common.translation import render
from games.analyses import AnalysisStored
from games.engine.errors import EngineError
from games.engine.position import Position
from games.engine.proof import ProofBudgetSpent, Prover
from games.engine.puzzle import PUZZLE_PLIES, Judgement, Verdict, judge_attempt
from games.engine.values import Peg
from players.accounts import GuestReplaced
from players.models import Player
from puzzles.models import DailyPuzzle, Puzzle, PuzzleAttempt, PuzzleOrigin, PuzzleRating, PuzzleSeen, PuzzleSource
from puzzles.pool import START_RATING, START_RD, board_key, puzzle_id
from puzzles.selectors import puzzle_get, puzzle_rating_now
from ratings import glicko2

NODE_BUDGET = 5_000_000
"""Proof nodes one judged attempt may spend (a few seconds at most; a pool puzzle needs far fewer)."""

DAILY_PLIES = (3, 5, 7)
"""The daily puzzle is a win in 3, 5 or 7: one for everyone, so not the hardest kind."""


# --- adding puzzles ----------------------------------------------------------------------------------
def puzzle_add(*, record: str, plies: int, origin: PuzzleOrigin, now: datetime) -> Puzzle:
    """The puzzle of this position: added at its starting rating, or the existing one for the same board
    (or a symmetric image of it). The caller vouches that ``plies`` is the proved shortest win.

    Raises:
        ValueError: ``plies`` is not a puzzle's length.
    """
    if plies not in PUZZLE_PLIES:
        raise ValueError(f"a puzzle is a win in 3, 5, 7 or 9 plies, not {plies}")
    key = board_key(Position.from_record(record))
    Puzzle.objects.bulk_create(
        [Puzzle(id=puzzle_id(key), key=key, record=record, plies=plies, origin=origin,
                rating=START_RATING[plies], rd=START_RD, created_at=now)],
        ignore_conflicts=True,
    )
    return Puzzle.objects.get(key=key)


def puzzles_from_analysis(stored: AnalysisStored) -> None:
    """Make a puzzle of every proved missed win (a win in 3 to 9 plies) of a stored analysis.

    Registered at start-up with ``games.analyses.ANALYSIS_STORED``. The analysis proved each position's
    shortest win; the record up to it is read from the analysis's own ``played`` moves.
    """
    game_id, result, now = stored.game_id, stored.result, stored.now
    entries = result.get("plies")
    if not isinstance(entries, list):
        return
    played = [entry.get("played") if isinstance(entry, dict) else None for entry in entries]
    with transaction.atomic():
        for ply, entry in enumerate(entries):
            if not isinstance(entry, dict) or entry.get("mark") != "missed_win":
                continue
            evaluation = entry.get("eval")
            if not isinstance(evaluation, dict):
                continue
            plies = evaluation.get("plies")
            if evaluation.get("kind") != "forced_win" or plies not in PUZZLE_PLIES:
                continue
            record = " ".join(str(peg) for peg in played[:ply])
            puzzle = puzzle_add(record=record, plies=int(str(plies)), origin=PuzzleOrigin.GAME, now=now)
            PuzzleSource.objects.bulk_create([PuzzleSource(puzzle=puzzle, game_id=game_id, ply=ply)],
                                             ignore_conflicts=True)


# --- solving -----------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class RatedAttempt:
    """What a rated attempt did to the player's puzzle rating (and the puzzle's)."""

    before: glicko2.Rating
    after: glicko2.Rating
    puzzle_after: glicko2.Rating

    @property
    def change(self) -> float:
        return self.after.rating - self.before.rating


@dataclass(frozen=True, slots=True)
class MoveOutcome:
    """The verdict on an attempt so far, and (once finished) what it did to the ratings."""

    judgement: Judgement
    rated: RatedAttempt | None
    """None while the attempt goes on, for a device without a player, and for a puzzle attempted or seen
    before."""


def parse_moves(moves: object, *, most: int) -> list[Peg]:
    """The solver's moves from the request: a list of 1 to ``most`` peg names.

    Raises:
        Refused: ``bad_request`` (not such a list), ``bad_peg`` (a name that is not a peg).
    """
    if not isinstance(moves, list) or not moves or len(moves) > most or not all(isinstance(m, str) for m in moves):
        raise Refused("bad_request", gettext('Send {"moves": [...]}: the 1 to %(most)s pegs you played, in order.')
                      % {"most": most})
    try:
        return [Peg.from_name(name) for name in moves]
    except EngineError as error:
        raise Refused(error.code, render(error)) from None


def puzzle_move(*, puzzle_id: str, moves: object, player: Player | None, now: datetime,
                seen: Collection[str] = ()) -> MoveOutcome:
    """Judge the solver's moves so far on a puzzle; a finished attempt (solved or failed) is rated once,
    unless the puzzle is in ``seen`` (the puzzles whose solution the device was shown: ``puzzles.device``)
    or the player has seen its solution before (:func:`attempt_rate`).

    Raises:
        Refused: ``not_found`` (no such puzzle), ``bad_request``, ``bad_peg``, ``peg_full`` (a move the rules
            or the attempt refuse), ``busy`` (the proofs ran past their budget: try again later).
    """
    puzzle = puzzle_get(puzzle_id)
    if puzzle is None:
        raise Refused("not_found", gettext("There is no such puzzle."))
    pegs = parse_moves(moves, most=(puzzle.plies + 1) // 2)
    try:
        judgement = judge_attempt(Position.from_record(puzzle.record), plies=puzzle.plies, moves=pegs,
                                  prover=Prover(max_nodes=NODE_BUDGET))
    except ProofBudgetSpent:
        raise Refused("busy", gettext("The puzzle took too long to check; try again in a moment.")) from None
    except EngineError as error:
        raise Refused(error.code, render(error)) from None
    rated = None
    if judgement.verdict is not Verdict.CONTINUE and player is not None:
        rated = None if puzzle.pk in seen else attempt_rate(
            player=player, puzzle=puzzle, solved=judgement.verdict is Verdict.SOLVED, moves=pegs, now=now)
    return MoveOutcome(judgement, rated)


def attempt_rate(*, player: Player, puzzle: Puzzle, solved: bool, moves: Sequence[Peg],
                 now: datetime) -> RatedAttempt | None:
    """Rate a player's finished attempt (a solve is the player's win against the puzzle), exactly once.

    Returns None, changing nothing, when the player attempted this puzzle before (only the first finished
    attempt counts, however often it is replayed) or was shown its solution otherwise (:class:`PuzzleSeen`).
    Concurrent attempts of one player queue on the lock of their puzzle-rating row; the unique (player,
    puzzle) constraint is the last line of defence.
    """
    try:
        with transaction.atomic():
            PuzzleRating.objects.bulk_create([PuzzleRating(player=player)], ignore_conflicts=True)
            row = PuzzleRating.objects.select_for_update().get(player=player)
            if (PuzzleAttempt.objects.filter(player=player, puzzle=puzzle).exists()
                    or PuzzleSeen.objects.filter(player=player, puzzle=puzzle).exists()):
                return None
            locked = Puzzle.objects.select_for_update().get(pk=puzzle.pk)
            before, puzzle_before = puzzle_rating_now(row, now=now), locked.as_glicko()
            after, puzzle_after = glicko2.rate_game(before, puzzle_before, 1.0 if solved else 0.0)
            row.rating, row.rd, row.volatility = after.rating, after.rd, after.volatility
            row.solved += solved
            row.failed += not solved
            row.last_rated_at = now
            row.save()
            locked.rating, locked.rd, locked.volatility = puzzle_after.rating, puzzle_after.rd, puzzle_after.volatility
            locked.attempts += 1
            locked.solves += solved
            locked.save(update_fields=["rating", "rd", "volatility", "attempts", "solves"])
            PuzzleAttempt.objects.create(
                player=player, puzzle=locked, solved=solved, moves=" ".join(peg.value for peg in moves),
                rating_before=before.rating, rating_after=after.rating,
                puzzle_rating_before=puzzle_before.rating, puzzle_rating_after=puzzle_after.rating, at=now,
            )
    except IntegrityError:
        return None  # a concurrent first attempt won (only without the row lock, e.g. SQLite's deferred locks)
    return RatedAttempt(before, after, puzzle_after)


def puzzles_seen_add(*, player: Player, puzzle_ids: Collection[str], now: datetime) -> None:
    """Mark the puzzles ``puzzle_ids`` (those that exist) seen by ``player``: none of them is rated for them."""
    known = Puzzle.objects.filter(pk__in=list(puzzle_ids)).values_list("pk", flat=True)
    PuzzleSeen.objects.bulk_create([PuzzleSeen(player=player, puzzle_id=pk, at=now) for pk in known],
                                   ignore_conflicts=True)


def puzzles_guest_replaced(replaced: GuestReplaced) -> None:
    """``players.accounts.GUEST_REPLACED``'s handler: what the device's guest attempted or saw, the account
    it logs into has seen (the guest was shown those solutions on this very device)."""
    guest = replaced.guest
    attempted = PuzzleAttempt.objects.filter(player=guest).values_list("puzzle_id", flat=True)
    seen = PuzzleSeen.objects.filter(player=guest).values_list("puzzle_id", flat=True)
    puzzles_seen_add(player=replaced.account, puzzle_ids={*attempted, *seen}, now=replaced.now)


# --- the daily puzzle --------------------------------------------------------------------------------
def _daily_choice(day: date, candidates: list[str]) -> str:
    digest = hashlib.blake2b(day.isoformat().encode(), digest_size=8).digest()
    return candidates[int.from_bytes(digest, "big") % len(candidates)]


def puzzle_daily(*, now: datetime) -> Puzzle | None:
    """The puzzle of ``now``'s UTC day, the same for everyone: chosen by the day's first request among the
    wins in 3 to 7 never chosen before (any puzzle once those run out) and kept. None with an empty pool."""
    day = now.date()
    existing = DailyPuzzle.objects.filter(day=day).select_related("puzzle").first()
    if existing is not None:
        return existing.puzzle
    used = DailyPuzzle.objects.values("puzzle_id")
    for pool in (Puzzle.objects.filter(plies__in=DAILY_PLIES).exclude(id__in=used), Puzzle.objects.all()):
        candidates = sorted(pool.values_list("id", flat=True))
        if candidates:
            break
    else:
        return None
    try:
        with transaction.atomic():
            DailyPuzzle.objects.create(day=day, puzzle_id=_daily_choice(day, candidates))
    except IntegrityError:
        pass  # another request chose it first: theirs stands
    return DailyPuzzle.objects.select_related("puzzle").get(day=day).puzzle
