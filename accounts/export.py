"""Everything kept about a player, as one JSON document (``GET /api/accounts/me/export``), read a page at a
time so that a long history streams without being held in memory.

The document is ``{"exported_at", "account", "<section>": [...], ...}``, one section per kind of row
(:data:`SECTIONS`): the rows are read ``PAGE`` at a time in key order (keyset paging: each page starts
after the last key of the one before), each in its own short query. Reports made are in it, reports
about the player are not; access tokens are their names and dates only.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Model, Q, QuerySet

from accounts.address import email_json
from bots.models import Challenge
from games.models import Game
from lobby.models import ChatMessage
from moderation.models import Report
from notifications.models import Notification
from players.models import AccessToken, Block, Follow, Player
from puzzles.models import PuzzleAttempt, PuzzleRating
from ratings.models import PlayerRating, RatingChange

PAGE = 500


@dataclass(frozen=True, slots=True)
class Section:
    """One list of the export: ``rows(player)``'s ``fields``, in key order."""

    name: str
    rows: Callable[[Player], QuerySet[Any]]
    fields: tuple[str, ...]


SECTIONS: tuple[Section, ...] = (
    Section("games", lambda p: Game.objects.filter(Q(red_player=p) | Q(yellow_player=p)), (
        "id", "room__code", "number", "status", "reason", "ranked", "turn_seconds", "red_seat", "red_player__name",
        "yellow_player__name", "red_cpu", "yellow_cpu", "cpu_level", "record", "winner_seat", "started_at",
        "finished_at")),
    Section("rating_history", lambda p: RatingChange.objects.filter(player=p), (
        "game_id", "opponent__name", "colour", "score", "rating_before", "rating_after", "rd_after", "rated_at")),
    Section("puzzle_attempts", lambda p: PuzzleAttempt.objects.filter(player=p), (
        "puzzle_id", "solved", "moves", "rating_before", "rating_after", "at")),
    Section("chat_messages", lambda p: ChatMessage.objects.filter(player=p), (
        "id", "room__code", "chat", "text", "phrase", "created_at")),
    Section("challenges", lambda p: Challenge.objects.filter(Q(challenger=p) | Q(dest=p)), (
        "id", "challenger__name", "dest__name", "turn_seconds", "ranked", "colour", "status", "decline_reason",
        "game_id", "created_at")),
    Section("following", lambda p: Follow.objects.filter(follower=p), ("followed_id", "followed__name", "created_at")),
    Section("blocks", lambda p: Block.objects.filter(blocker=p), ("blocked_id", "blocked__name", "created_at")),
    Section("reports_made", lambda p: Report.objects.filter(reporter=p), (
        "id", "player_id", "player__name", "reason", "text", "game_id", "message_id", "created_at")),
    Section("notifications", lambda p: Notification.objects.filter(player=p), (
        "id", "kind", "text", "url", "data", "created_at", "read_at")),
    Section("access_tokens", lambda p: AccessToken.objects.filter(player=p), (
        "description", "created_at", "last_used_at", "revoked_at")),
)


def _encode(value: object) -> str:
    return json.dumps(value, cls=DjangoJSONEncoder, ensure_ascii=False)


def _rating(row: Model | None) -> dict[str, Any] | None:
    if row is None:
        return None
    return {field: getattr(row, field) for field in ("rating", "rd", "volatility") if hasattr(row, field)}


def export_head(player: Player, *, now: datetime) -> str:
    """The document's opening: when, and the account (name, username, dates, email, ratings)."""
    account = {
        "id": player.pk, "name": player.name, "username": player.user.username if player.user else None,
        "created_at": player.created_at, "bot": player.is_bot, **email_json(player),
        "rating": _rating(PlayerRating.objects.filter(player=player).first()),
        "puzzle_rating": _rating(PuzzleRating.objects.filter(player=player).first()),
    }
    return f'{{"exported_at": {_encode(now)}, "account": {_encode(account)}'


def export_page(section: Section, player: Player, *, after: Any = None) -> tuple[list[str], Any]:
    """One page of ``section``'s rows as JSON texts, and the key to read the next page after (None: done)."""
    rows = section.rows(player).order_by("pk")
    if after is not None:
        rows = rows.filter(pk__gt=after)
    page = list(rows.values("pk", *section.fields)[:PAGE])
    texts = [_encode({field: row[field] for field in section.fields}) for row in page]
    return texts, page[-1]["pk"] if len(page) == PAGE else None
