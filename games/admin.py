"""Django admin for staff: games, as read-only records with their moves, and their analyses (nothing can be
changed)."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest

from games.models import Game, GameAnalysis, Move


class ReadOnly:
    """Staff may look, never add, change or delete: the moves are the truth of a game."""

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class MoveInline(ReadOnly, admin.TabularInline[Move, Game]):
    model = Move
    fields = ("ply", "peg", "seat", "cpu", "cpu_reason", "played_at")
    readonly_fields = fields
    extra = 0


@admin.register(Game)
class GameAdmin(ReadOnly, admin.ModelAdmin[Game]):
    list_display = ("id", "room", "number", "status", "reason", "red_player", "yellow_player", "ranked", "ply",
                    "started_at", "finished_at")
    list_filter = ("status", "reason", "ranked")
    search_fields = ("room__code", "red_player__name", "yellow_player__name")
    list_select_related = ("room", "red_player", "yellow_player")
    ordering = ("-started_at",)
    inlines = (MoveInline,)


@admin.register(GameAnalysis)
class GameAnalysisAdmin(ReadOnly, admin.ModelAdmin[GameAnalysis]):
    """Each finished game's analysis: whether it is queued, running, done or failed, and what it found."""

    list_display = ("game", "status", "version", "attempts", "queued_at", "finished_at")
    list_filter = ("status", "version")
    search_fields = ("game__room__code",)
    list_select_related = ("game", "game__room")
    ordering = ("-queued_at",)
    fields = ("game", "status", "version", "attempts", "queued_at", "started_at", "finished_at", "lease_until",
              "moments", "result")
    readonly_fields = fields

    @admin.display(description="key moments")
    def moments(self, row: GameAnalysis) -> str:
        """The moments' sentences, one a line, as the replay page lists them."""
        moments = row.result.get("moments") if isinstance(row.result, dict) else None
        if not isinstance(moments, list):
            return "-"
        return "\n".join(str(moment.get("text", "")) for moment in moments if isinstance(moment, dict)) or "none"
