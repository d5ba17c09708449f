"""A finished game's post-game analysis: queued in the transaction that ends the game, claimed under a
lease by one process at a time, stored (and the layers above told, once committed) or given back.

The computation itself is the engine's (``games.engine.analyse``), run off the event loop in the CPU pool's
analysis lane (``games.cpu_pool``) by the ticker (``lobby.realtime.ticker``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q

from common.hooks import Hook, OnError, Runs
from games.engine.analyse import ANALYSIS_VERSION
from games.models import AnalysisStatus, Game, GameAnalysis, GameStatus
from games.selectors import game_pegs
from live.events import Signal, on_commit


@dataclass(frozen=True, slots=True)
class AnalysisStored:
    """A game's analysis (the engine's JSON), as stored, as the layers above hear of it through
    :data:`ANALYSIS_STORED`."""

    game_id: str
    result: dict[str, object]
    now: datetime


# Once the stored analysis has committed; a handler that raises is logged (the analysis stays stored).
# The puzzles register one at start-up, to make puzzles of its proved missed wins.
ANALYSIS_STORED: Hook[AnalysisStored] = Hook(
    "analysis stored", runs=Runs.AFTER_COMMIT, on_error=OnError.CONTAIN, defer=transaction.on_commit)


@dataclass(frozen=True, slots=True)
class AnalysisQueued(Signal):
    """An analysis was queued (once committed): this process's ticker looks for one to compute at once,
    rather than at its next look (``lobby.realtime.loop.LobbyLoop`` hears it)."""


# A failing analysis (it should not happen: the moves were validated) is tried this often, then FAILED.
ANALYSIS_MAX_ATTEMPTS = 3


@dataclass(frozen=True)
class AnalysisJob:
    """A claimed analysis: the game and its record (pegs separated by spaces)."""

    game_id: str
    record: str


def analysis_wanted(game: Game) -> bool:
    """Whether ``game`` gets an analysis: every finished game but abandoned ones (no result to explain)."""
    return game.status not in (GameStatus.PLAYING, GameStatus.ABANDONED)


def analysis_queue(game: Game, *, now: datetime) -> GameAnalysis | None:
    """Queue ``game``'s analysis if it is wanted and not queued yet (called where every game ends, in
    the transaction that ends it, so a game is queued exactly once); returns the row or None."""
    if not analysis_wanted(game):
        return None
    row, created = GameAnalysis.objects.get_or_create(
        game=game, defaults={"version": ANALYSIS_VERSION, "queued_at": now, "status": AnalysisStatus.QUEUED}
    )
    if created:
        on_commit(AnalysisQueued())
    return row


def analysis_request(game: Game, *, now: datetime) -> GameAnalysis | None:
    """The analysis of ``game`` as the API shows it, queued first if it is missing (a game finished
    before analyses existed) or was done by an older engine (its ``version`` is below
    ``ANALYSIS_VERSION``). None: the game gets no analysis (being played, or abandoned)."""
    row = analysis_queue(game, now=now)
    if row is None:
        return None
    if row.status in (AnalysisStatus.DONE, AnalysisStatus.FAILED) and row.version < ANALYSIS_VERSION:
        requeued = GameAnalysis.objects.filter(pk=row.pk, version__lt=ANALYSIS_VERSION).update(
            status=AnalysisStatus.QUEUED, version=ANALYSIS_VERSION, result=None, attempts=0, queued_at=now,
            started_at=None, finished_at=None, lease_until=None,
        )
        if requeued:
            row.refresh_from_db()
            on_commit(AnalysisQueued())
    return row


def analyses_claim(*, now: datetime, lease: timedelta, limit: int = 1) -> list[AnalysisJob]:
    """Lease up to ``limit`` analyses to compute, oldest first, so one process computes each.

    Claimable: queued ones, and running ones whose lease expired (their process died); each claim counts
    an attempt, and a row out of attempts becomes FAILED instead.
    """
    expired = Q(status=AnalysisStatus.RUNNING, lease_until__lt=now)
    claimable = Q(status=AnalysisStatus.QUEUED) | expired
    GameAnalysis.objects.filter(expired, attempts__gte=ANALYSIS_MAX_ATTEMPTS).update(
        status=AnalysisStatus.FAILED, lease_until=None, finished_at=now
    )
    candidates = list(
        GameAnalysis.objects.filter(claimable, attempts__lt=ANALYSIS_MAX_ATTEMPTS)
        .order_by("queued_at")
        .values_list("pk", "attempts")[:limit]
    )
    jobs = []
    for pk, attempts in candidates:
        # Compare-and-set on the attempt count: of two processes claiming at once, one wins.
        taken = GameAnalysis.objects.filter(claimable, pk=pk, attempts=attempts).update(
            status=AnalysisStatus.RUNNING, lease_until=now + lease, started_at=now, attempts=attempts + 1
        )
        if taken:
            game = Game.objects.get(pk=pk)
            jobs.append(AnalysisJob(game_id=str(pk), record=" ".join(game_pegs(game))))
    return jobs


def analysis_store(*, game_id: str, result: dict[str, object], now: datetime) -> bool:
    """Store a computed analysis (the engine's JSON) of a claimed row; False if it is no longer running
    (e.g. requeued meanwhile). Once stored, :data:`ANALYSIS_STORED` hears of it."""
    version = result.get("version")
    stored = GameAnalysis.objects.filter(game_id=game_id, status=AnalysisStatus.RUNNING).update(
        status=AnalysisStatus.DONE, result=result,
        version=version if isinstance(version, int) else ANALYSIS_VERSION,
        finished_at=now, lease_until=None,
    )
    if stored:
        ANALYSIS_STORED.emit(AnalysisStored(game_id=game_id, result=result, now=now))
    return bool(stored)


def analysis_give_up(*, game_id: str, now: datetime) -> None:
    """A claimed analysis that went over its CPU budget (``ANALYSIS_CPU_BUDGET_S``): FAILED at once, as
    trying again would cost as much again."""
    GameAnalysis.objects.filter(game_id=game_id, status=AnalysisStatus.RUNNING).update(
        status=AnalysisStatus.FAILED, lease_until=None, finished_at=now
    )


def analysis_release(*, game_id: str, now: datetime) -> None:
    """Give a claimed analysis back after its computation failed: queued again, or FAILED when out of
    attempts."""
    running = GameAnalysis.objects.filter(game_id=game_id, status=AnalysisStatus.RUNNING)
    running.filter(attempts__gte=ANALYSIS_MAX_ATTEMPTS).update(
        status=AnalysisStatus.FAILED, lease_until=None, finished_at=now
    )
    running.update(status=AnalysisStatus.QUEUED, lease_until=None)
