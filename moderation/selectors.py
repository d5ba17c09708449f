"""What the moderators' queue shows of a report: the chat around the reported player's messages."""

from __future__ import annotations

from lobby.models import ChatMessage
from moderation.models import Report

RECENT_MESSAGES = 5
AROUND = 10


def chat_context(report: Report, *, recent: int = RECENT_MESSAGES, around: int = AROUND) -> list[ChatMessage]:
    """The reported player's latest ``recent`` messages in the report's room (the reported one among them),
    each with the ``around`` messages before and after it in that room, oldest first, each once."""
    if report.room_id is None:
        return []
    in_room = ChatMessage.objects.filter(room_id=report.room_id)
    centres = list(in_room.filter(player_id=report.player_id).order_by("-id").values_list("id", flat=True)[:recent])
    if report.message_id is not None and report.message_id not in centres:
        centres.append(report.message_id)
    ids: set[int] = set()
    for centre in centres:
        ids.add(centre)
        ids.update(in_room.filter(id__lt=centre).order_by("-id").values_list("id", flat=True)[:around])
        ids.update(in_room.filter(id__gt=centre).order_by("id").values_list("id", flat=True)[:around])
    return list(ChatMessage.objects.filter(id__in=ids).order_by("id"))
