"""Django admin for staff: the runs, read only (a run is the server's own: nothing of it is edited)."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from arcade.models import Run


@admin.register(Run)
class RunAdmin(admin.ModelAdmin[Run]):
    list_display = ("id", "mode", "player", "bot", "status", "score", "peak", "moves", "ranked_score", "started_at",
                    "closed_at")
    list_filter = ("mode", "bot", "status")
    search_fields = ("id", "player__name")
    readonly_fields = [field.name for field in Run._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Run | None = None) -> bool:
        return False
