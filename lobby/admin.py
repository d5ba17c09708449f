"""Django admin for staff: rooms, read-only, with one action: close them.

Closing goes through :func:`lobby.rooms.services.room_close`: the game being played ends as ``abandoned``
(unrated), and the room's open pages get its last snapshot and a ``room_closed`` error before their
socket closes (4410); reopening the page says the room is closed.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.utils import timezone

from games.selectors import room_latest_game
from lobby.models import Room, Seat
from lobby.rooms.services import room_close


class SeatInline(admin.TabularInline[Seat, Room]):
    model = Seat
    fields = ("number", "player", "cpu", "away", "disconnected_at")
    readonly_fields = fields
    extra = 0

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin[Room]):
    list_display = ("code", "host", "game", "created_at", "last_activity_at", "closed_at")
    list_filter = (("closed_at", admin.EmptyFieldListFilter),)
    search_fields = ("code", "host__name")
    list_select_related = ("host",)
    ordering = ("-last_activity_at",)
    inlines = (SeatInline,)
    actions = ("close_rooms",)

    @admin.display(description="current game")
    def game(self, room: Room) -> str:
        latest = room_latest_game(room.pk)
        return "—" if latest is None else f"#{latest.number} {latest.status}"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # rooms are made by players

    def has_change_permission(self, request: HttpRequest, obj: Room | None = None) -> bool:
        return False  # only through the close action, which keeps games and sockets consistent

    def has_delete_permission(self, request: HttpRequest, obj: Room | None = None) -> bool:
        return False  # a room holds its games' records: close it instead

    @admin.action(description="Close the selected rooms (a game being played ends as abandoned)")
    def close_rooms(self, request: HttpRequest, queryset: QuerySet[Room]) -> None:
        now = timezone.now()
        codes = list(queryset.filter(closed_at=None).values_list("code", flat=True))
        closed = [code for code in codes if room_close(code=code, now=now)]
        self.message_user(request, f"Closed {len(closed)} room(s): {' '.join(closed) or 'none'}.", messages.SUCCESS)
