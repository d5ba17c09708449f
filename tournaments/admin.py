"""Staff create and watch arenas in the Django admin (no daily quota there)."""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.contrib import admin
from django.http import HttpRequest
from django.utils import timezone

from tournaments.models import Arena, ArenaPlayer, ArenaStatus


class ArenaPlayerInline(admin.TabularInline[ArenaPlayer, Arena]):
    model = ArenaPlayer
    fields = ("player", "score", "games", "wins", "draws", "losses", "paused", "withdrawn")
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(Arena)
class ArenaAdmin(admin.ModelAdmin[Arena]):
    list_display = ("name", "status", "starts_at", "minutes", "turn_seconds", "ranked", "berserk")
    list_filter = ("status", "ranked")
    fields = ("name", "starts_at", "minutes", "turn_seconds", "ranked", "berserk", "status", "ends_at")
    readonly_fields = ("status", "ends_at")
    inlines = [ArenaPlayerInline]

    def save_model(self, request: HttpRequest, obj: Arena, form: forms.ModelForm[Arena], change: bool) -> None:
        """A new arena's end follows from its start and length; so does its status (the arena loop moves it on)."""
        now = timezone.now()
        obj.ends_at = obj.starts_at + timedelta(minutes=obj.minutes)
        if not change:
            obj.created_at = now
            obj.status = ArenaStatus.STARTED if obj.starts_at <= now else ArenaStatus.CREATED
        super().save_model(request, obj, form, change)
