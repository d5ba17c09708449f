"""Reads of arenas: the arena with its standings (``GET /api/tournaments/{id}`` and the socket's frame),
the list of arenas, and an arena's games in the order they ended. The JSON: :mod:`tournaments.protocol`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count, Q

from games.models import Game
from players.models import Player
from tournaments import protocol
from tournaments.models import Arena, ArenaGame, ArenaPlayer, ArenaStatus
from tournaments.scoring import Entrant, podium, standings
from tournaments.services import STARTING_SOON, tally_of


def arenas_next_due(*, now: datetime) -> datetime | None:
    """When an arena not started yet next needs the sweep (``tournaments.services.arenas_sweep``): its
    players told it starts soon, or its start; a second away while one started is past its end (it finishes
    when its last game is over, which no signal announces); None if no arena waits to start or to finish."""
    if Arena.objects.filter(status=ArenaStatus.STARTED).exists():
        return now + timedelta(seconds=1)
    due = None
    for starts_at, told in Arena.objects.filter(status=ArenaStatus.CREATED).values_list("starts_at",
                                                                                       "starting_told_at"):
        at = starts_at if told is not None or starts_at - STARTING_SOON <= now else starts_at - STARTING_SOON
        due = at if due is None else min(due, at)
    return due


# Standings rows per page (the socket's frame shows the first page and the reader's own row).
STANDINGS_PAGE = 20


@dataclass(frozen=True, slots=True)
class ArenaView:
    """An arena read once, to be shown to many: its JSON without the reader's own row, and every row
    by player id (so each reader's own row costs nothing more)."""

    arena_id: int
    body: dict[str, Any]
    rows: dict[str, dict[str, Any]]
    playing: dict[str, dict[str, str]]

    def for_player(self, player_id: str | None) -> dict[str, Any]:
        """The body as ``player_id`` sees it: with ``me`` (their row and their game being played)."""
        return protocol.with_me(self.body, row=self.rows.get(player_id or ""),
                                playing=self.playing.get(player_id or ""))


def arena_view(arena_id: int, *, page: int = 1) -> ArenaView | None:
    """The arena, its players and standings (page ``page``), read in three queries; None: no such arena."""
    arena = Arena.objects.filter(pk=arena_id).first()
    if arena is None:
        return None
    entries = list(ArenaPlayer.objects.filter(arena=arena).select_related("player", "game__room"))
    ranked = standings([Entrant(player_id=str(e.player_id), tally=tally_of(e), order=e.pk) for e in entries])
    by_player = {str(e.player_id): e for e in entries}
    rows = {
        entrant.player_id: protocol.standing_json(rank=rank, entry=by_player[entrant.player_id], tally=entrant.tally)
        for rank, entrant in enumerate(ranked, start=1)
    }
    ordered = [rows[entrant.player_id] for entrant in ranked]
    pages = max(1, -(-len(ordered) // STANDINGS_PAGE))
    page = min(max(page, 1), pages)
    finished = arena.status == ArenaStatus.FINISHED
    top = [rows[e.player_id] for e in podium(ranked)] if finished else None
    playing = {
        str(e.player_id): protocol.playing_json(code=e.game.room.code, game_id=str(e.game_id))
        for e in entries if e.game is not None
    }
    body = protocol.arena_json(
        arena, players=sum(not e.withdrawn for e in entries),
        standings=ordered[(page - 1) * STANDINGS_PAGE: page * STANDINGS_PAGE], page=page, pages=pages,
        podium=top, playing=len(playing) // 2,
    )
    return ArenaView(arena_id=arena.pk, body=body, rows=rows, playing=playing)


def arenas_list(*, now: datetime, limit: int, offset: int, status: str | None = None) -> dict[str, Any]:
    """Arenas, newest first within each group: running, then upcoming (soonest first), then finished."""
    arenas = Arena.objects.all()
    if status is not None:
        arenas = arenas.filter(status=status)
    order = {ArenaStatus.STARTED: 0, ArenaStatus.CREATED: 1, ArenaStatus.FINISHED: 2}
    count = arenas.count()
    running = list(arenas.filter(status=ArenaStatus.STARTED).order_by("ends_at"))
    upcoming = list(arenas.filter(status=ArenaStatus.CREATED).order_by("starts_at"))
    wanted = offset + limit
    done = list(arenas.filter(status=ArenaStatus.FINISHED).order_by("-finished_at", "-pk")[
        : max(0, wanted - len(running) - len(upcoming))])
    chosen = sorted(running + upcoming, key=lambda a: order[ArenaStatus(a.status)]) + done
    chosen = chosen[offset:wanted]
    counts = _player_counts(chosen)
    return {"count": count, "limit": limit, "offset": offset,
            "results": [protocol.arena_summary_json(a, players=counts.get(a.pk, 0)) for a in chosen]}


def _player_counts(arenas: list[Arena]) -> dict[int, int]:
    rows = (ArenaPlayer.objects.filter(arena__in=arenas, withdrawn=False).values("arena_id")
            .annotate(n=Count("pk")).values_list("arena_id", "n"))
    return dict(rows)


def arena_games(arena_id: int) -> list[dict[str, Any]] | None:
    """Every scored game of the arena in the order they ended; None: no such arena."""
    if not Arena.objects.filter(pk=arena_id).exists():
        return None
    rows = ArenaGame.objects.filter(arena_id=arena_id).exclude(scored_at=None).order_by("scored_at", "pk")
    games = Game.objects.in_bulk([row.game_id for row in rows])
    return [protocol.arena_game_json(row, games[row.game_id]) for row in rows]


def arena_player(arena_id: int, player: Player | None) -> ArenaPlayer | None:
    """The player's entry in the arena (withdrawn or not), if any."""
    if player is None:
        return None
    return ArenaPlayer.objects.filter(Q(arena_id=arena_id) & Q(player=player)).first()
