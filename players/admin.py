"""Django admin for staff: players. Rename an offensive name, ban and unban. Nothing else is editable.

A rename goes through :func:`players.services.player_rename` (the rooms showing the player are sent
again); a ban through :func:`players.services.player_ban` (the player's websockets are closed and new
ones refused, with the reason shown on the page).
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from common.errors import Refused
from players.models import Player
from players.services import clean_player_name, player_ban, player_rename, player_unban


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
    readonly_fields = ("id", "username", "created_at", "banned_at")
    fields = ("name", "id", "username", "created_at", "banned_at")
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
