"""The notifications' wire format: a notification's JSON, the live ``notification`` frame, a page of them.
Built from the rows a caller holds (no queries here); ``docs/protocol.md`` has an example of each."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from common.iso import iso
from notifications.kinds import KINDS

if TYPE_CHECKING:  # the row's type only
    from notifications.models import Notification

PAGE_SIZE = 20


def notification_json(notification: Notification) -> dict[str, Any]:
    """``{"id", "kind", "created_at", "read", "text", "url", "data"}``, ``text`` in the active language
    (its kind's text, ``notifications.kinds``)."""
    return {
        "id": notification.pk,
        "kind": notification.kind,
        "created_at": iso(notification.created_at),
        "read": notification.read_at is not None,
        "text": KINDS.text(notification.kind, notification.data, stored=notification.text),
        "url": notification.url or None,
        "data": notification.data,
    }


def notification_frame(notification: dict[str, Any], *, unread: int) -> dict[str, Any]:
    """The frame every open page of the player receives: a :func:`notification_json` and the unread count."""
    return {"type": "notification", "notification": notification, "unread": unread}


def page_json(rows: list[Notification], *, unread: int, next_url: str | None) -> dict[str, Any]:
    """One page of ``GET /api/notifications``: ``{"unread", "results", "next"}``."""
    return {"unread": unread, "results": [notification_json(row) for row in rows], "next": next_url}
