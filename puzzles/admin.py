"""Django admin for staff: the puzzles with their ratings and sources (a puzzle can be deleted, e.g. a poor
one; its position and length are the proof's and cannot be edited)."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from puzzles.models import Puzzle, PuzzleSource


class SourceInline(admin.TabularInline[PuzzleSource, Puzzle]):
    model = PuzzleSource
    fields = ("game", "ply")
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(Puzzle)
class PuzzleAdmin(admin.ModelAdmin[Puzzle]):
    list_display = ("id", "plies", "rating", "rd", "attempts", "solves", "origin", "created_at")
    list_filter = ("plies", "origin")
    search_fields = ("id", "record")
    readonly_fields = ("id", "key", "record", "plies", "origin", "rating", "rd", "volatility", "attempts", "solves",
                       "created_at")
    inlines = [SourceInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
