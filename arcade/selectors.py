"""Reads of the arcade: a run as its viewer may see it, a player's runs, the high scores, a player's bests.

A run being played is its player's alone (another viewer is told there is none); a closed run is public,
with its record, so that anyone may watch it replayed. The high scores rank closed runs by their checked
score (the replay's peak), one row per player: their best run of the mode in the period.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import F, QuerySet, Window
from django.db.models.functions import RowNumber
from django.utils.translation import gettext

from arcade.engine import MODES
from arcade.models import Run, Step
from arcade.shown import RunShown
from arcade.state import record_of, state_of
from common.errors import Refused
from common.iso import iso
from players.models import Player
from players.selectors import player_json

PERIODS = ("all", "week", "day")
BOARDS = ("players", "bots")
PAGE_SIZE = 50


def no_run() -> Refused:
    return Refused("no_run", gettext("There is no such run of yours."))


def run_key(run_id: object) -> str:
    """``run_id`` as a run's key.

    Raises:
        Refused(no_run): not a run's id.
    """
    try:
        return str(uuid.UUID(str(run_id)))
    except ValueError:
        raise no_run() from None


def run_shown(run: Run, *, record: bool) -> RunShown:
    """``run`` as it is shown (with its record, read here, when ``record``)."""
    steps = Step.objects.filter(run_id=run.pk).order_by("n") if record else None
    return RunShown(run_id=str(run.pk), state=state_of(run), steps=run.steps, best_before=run.best_before,
                    bot=run.bot, player=player_json(run.player), started_at=run.started_at, closed_at=run.closed_at,
                    ranked_score=run.ranked_score, record=None if steps is None else record_of(run, steps))


def run_get(run_id: object, *, viewer: Player | None) -> RunShown:
    """The run ``run_id`` as ``viewer`` may see it: its player always, anyone once it is closed (then with
    its record).

    Raises:
        Refused(no_run): no such run, or another's still open.
    """
    run = Run.objects.select_related("player").filter(pk=run_key(run_id)).first()
    if run is None or (run.closed_at is None and (viewer is None or run.player_id != viewer.pk)):
        raise no_run()
    return run_shown(run, record=run.closed_at is not None)


def runs_of(player: Player | None, *, mode: str | None, status: str | None) -> list[RunShown]:
    """The player's open runs (a run to resume; ``status`` narrows them to one status), of ``mode`` if given."""
    if player is None:
        return []
    runs = Run.objects.select_related("player").filter(player=player, closed_at__isnull=True)
    if mode is not None:
        runs = runs.filter(mode=mode)
    if status is not None:
        runs = runs.filter(status=status)
    return [run_shown(run, record=False) for run in runs.order_by("-played_at")]


def period_start(period: str, *, now: datetime) -> datetime | None:
    """When ``period`` began (UTC): ``day`` at midnight today, ``week`` at midnight on Monday; ``all``: None."""
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    if period == "day":
        return midnight
    if period == "week":
        return midnight - timedelta(days=now.weekday())
    return None


@dataclass(frozen=True, slots=True)
class ScoresPage:
    mode: str
    period: str
    board: str
    page: int
    rows: list[dict[str, Any]]
    more: bool


def _ranked(mode: str, *, bots: bool, since: datetime | None) -> QuerySet[Run]:
    runs = Run.objects.filter(mode=mode, bot=bots, ranked_score__isnull=False)
    return runs if since is None else runs.filter(closed_at__gte=since)


def scores_top(mode: str, period: str, page: int, *, board: str = "players", now: datetime) -> ScoresPage:
    """One page of the high scores of ``mode`` in ``period``: each player's best run there (the highest
    checked score, the earliest of equal ones), best first.

    Raises:
        Refused(bad_mode, bad_request): an unknown mode, period or board.
    """
    if mode not in MODES:
        raise Refused("bad_mode", gettext('"%(mode)s" is not an arcade mode.') % {"mode": mode})
    if period not in PERIODS or board not in BOARDS:
        raise Refused("bad_request", gettext("period: all, week or day; board: players or bots."))
    best = _ranked(mode, bots=board == "bots", since=period_start(period, now=now)).annotate(
        place=Window(RowNumber(), partition_by=[F("player_id")],
                     order_by=[F("ranked_score").desc(), F("closed_at").asc(), F("id").asc()]))
    first = (page - 1) * PAGE_SIZE
    runs = list(best.filter(place=1).select_related("player")
                .order_by("-ranked_score", "closed_at", "id")[first:first + PAGE_SIZE + 1])
    rows = [{
        "rank": first + i + 1, "player": player_json(run.player), "score": run.ranked_score,
        "top_tile": run.peak_tile, "moves": run.moves, "date": iso(run.closed_at) if run.closed_at else None,
        "run": str(run.pk),
    } for i, run in enumerate(runs[:PAGE_SIZE])]
    return ScoresPage(mode=mode, period=period, board=board, page=page, rows=rows, more=len(runs) > PAGE_SIZE)


def player_bests(player: Player) -> dict[str, Any]:
    """A player's best run of each mode (``{"classic": {"score", "top_tile", "run", "date"} | None, ...}``):
    the arcade's part of the player's page (hooked into the games' player page at start-up)."""
    runs = (Run.objects.filter(player=player, ranked_score__isnull=False)
            .annotate(place=Window(RowNumber(), partition_by=[F("mode")],
                                   order_by=[F("ranked_score").desc(), F("closed_at").asc(), F("id").asc()]))
            .filter(place=1))
    bests: dict[str, Any] = dict.fromkeys(MODES)
    for run in runs:
        bests[run.mode] = {"score": run.ranked_score, "top_tile": run.peak_tile, "run": str(run.pk),
                           "date": iso(run.closed_at) if run.closed_at else None}
    return bests


def player_arcade_part(player: Player, *, now: datetime) -> dict[str, Any]:
    """The ``arcade`` part of a player's page (``games.selectors.PLAYER_PAGE_PARTS``)."""
    return {"best": player_bests(player)}

