"""Django admin for staff: players. Rename an offensive name, ban and unban. Nothing else is editable.

The admin's login is held to the API's login limits (``players.accounts``: 5 failures per name and
address, 30 per address, in 15 minutes): over them, every attempt is refused with the form's error,
the right password too, until the window lets one through.

A rename goes through :func:`players.services.player_rename` (the rooms showing the player are sent
again); a ban through :func:`players.services.player_ban` (the player's websockets are closed and new
ones refused, with the reason shown on the page).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, ClassVar

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.forms import AdminAuthenticationForm
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from common.errors import RateLimited, Refused
from players.accounts import login_failure_count, login_success, login_throttle_check
from players.identity import client_address
from players.models import Player
from players.services import clean_player_name, player_ban, player_rename, player_unban


class ThrottledAdminLoginForm(AdminAuthenticationForm):
    """The admin's login form, counting its failures with the API's login and refusing over the limits."""

    clock: ClassVar[Callable[[], datetime]] = timezone.now  # the tests' clock moves past the window

    def clean(self) -> dict[str, Any]:
        username, now = self.cleaned_data.get("username"), type(self).clock()
        address = client_address(self.request) if self.request is not None else "unknown"
        try:
            login_throttle_check(username, address, now=now)
        except RateLimited as limited:
            raise ValidationError(limited.message, code="rate_limited") from None
        try:
            cleaned = super().clean()
        except ValidationError:  # a wrong password, or an account that is not staff
            login_failure_count(username, address, now=now)
            raise
        if self.user_cache is not None:  # not when a field was missing: that proves nothing
            login_success(username, address)
        return cleaned


admin.site.login_form = ThrottledAdminLoginForm


class PlayerForm(forms.ModelForm[Player]):
    class Meta:
        model = Player
        fields = ["name"]

    def clean_name(self) -> str:
        try:
            return clean_player_name(self.cleaned_data["name"])
        except Refused as exc:
            raise ValidationError(exc.message) from None


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    form = PlayerForm
    list_display = ("name", "id", "username", "banned_at", "created_at")
    list_filter = (("banned_at", admin.EmptyFieldListFilter),)
    search_fields = ("name", "user__username")
    readonly_fields = ("id", "username", "created_at", "banned_at", "closed_at")
    fields = ("name", "id", "username", "created_at", "banned_at", "closed_at")
    ordering = ("-created_at",)
    list_select_related = ("user",)
    actions = ("ban", "unban")

    @admin.display(description="account")
    def username(self, player: Player) -> str:
        return player.user.username if player.user is not None else "(guest)"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # players are made by their devices

    def has_delete_permission(self, request: HttpRequest, obj: Player | None = None) -> bool:
        return False  # games and ratings refer to players: ban instead

    def save_model(self, request: HttpRequest, obj: Player, form: forms.ModelForm[Player], change: bool) -> None:
        # Through the service, from the stored row, so the rooms showing the player hear of it.
        player_rename(player=Player.objects.get(pk=obj.pk), name=form.cleaned_data["name"])

    @admin.action(description="Ban the selected players (their sockets close, new ones are refused)")
    def ban(self, request: HttpRequest, queryset: QuerySet[Player]) -> None:
        now = timezone.now()
        banned = [player.name for player in queryset if player_ban(player=player, now=now)]
        self.message_user(request, f"Banned {len(banned)} player(s): {', '.join(banned) or 'none'}.",
                          messages.SUCCESS)

    @admin.action(description="Lift the ban of the selected players")
    def unban(self, request: HttpRequest, queryset: QuerySet[Player]) -> None:
        lifted = [player.name for player in queryset if player_unban(player=player)]
        self.message_user(request, f"Lifted the ban of {len(lifted)} player(s): {', '.join(lifted) or 'none'}.",
                          messages.SUCCESS)
