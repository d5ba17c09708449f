"""Reading a player's notifications: the unread count and a page, newest first."""

from __future__ import annotations

from notifications.models import Notification, PlayerId
from notifications.protocol import PAGE_SIZE


def unread_count(player_id: PlayerId) -> int:
    """How many of the player's notifications are unread (a partial index counts them)."""
    return Notification.objects.filter(player_id=player_id, read_at__isnull=True).count()


def notifications_page(player_id: PlayerId, *, page: int) -> tuple[list[Notification], bool]:
    """The player's notifications on ``page`` (1 is the newest ``PAGE_SIZE``), and whether more follow."""
    start = (page - 1) * PAGE_SIZE
    rows = list(Notification.objects.filter(player_id=player_id).order_by("-id")[start:start + PAGE_SIZE + 1])
    return rows[:PAGE_SIZE], len(rows) > PAGE_SIZE
