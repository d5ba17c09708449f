"""A closed room's chat is kept CHAT_RETENTION_DAYS days, then deleted: the service with a fixed clock,
the command, and the ticker that does it hourly in every process."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

import pytest
from django.core.management import call_command

from lobby.chat.services import chat_delete_expired, chat_say
from lobby.models import ChatMessage
from lobby.realtime import ticker as ticker_module
from lobby.realtime.ticker import Ticker
from lobby.rooms.services import room_close, room_create
from players.services import player_create

T0 = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
KEEP = timedelta(days=30)


def room_with_chat(name: str, *, closed_at: datetime | None) -> str:
    """A room where its host said two things at T0, closed at ``closed_at`` (None: still open)."""
    host = player_create(name=name, now=T0)
    code = room_create(host=host, rules={}, now=T0).code
    for text in ("hello", "good game"):
        chat_say(code=code, player=host, chat="players", text=text, phrase=None, now=T0)
    if closed_at is not None:
        assert room_close(code=code, now=closed_at)
    return code


def messages(code: str) -> int:
    return ChatMessage.objects.filter(room__code=code).count()


@pytest.mark.django_db
def test_a_closed_rooms_chat_is_deleted_once_kept_for_the_retention_days():
    expired = room_with_chat("Ann", closed_at=T0 + timedelta(days=1))
    recent = room_with_chat("Bob", closed_at=T0 + timedelta(days=20))
    still_open = room_with_chat("Cy", closed_at=None)
    now = T0 + timedelta(days=31, seconds=1)  # Ann's room closed 30 days and a second ago
    assert chat_delete_expired(now=now, keep=KEEP) == 2
    assert (messages(expired), messages(recent), messages(still_open)) == (0, 2, 2)
    assert chat_delete_expired(now=now, keep=KEEP) == 0  # again: nothing more
    assert chat_delete_expired(now=now + timedelta(days=365), keep=KEEP) == 2  # an open room keeps its chat
    assert messages(still_open) == 2


@pytest.mark.django_db
def test_the_command_deletes_by_the_setting_or_its_days(settings):
    room_with_chat("Ann", closed_at=datetime.now(UTC) - timedelta(days=40))  # the command reads the clock
    kept = room_with_chat("Bob", closed_at=datetime.now(UTC))
    out = io.StringIO()
    settings.CHAT_RETENTION_DAYS = 30
    call_command("delete_old_chat", stdout=out)
    assert "deleted 2 chat message(s)" in out.getvalue() and messages(kept) == 2
    call_command("delete_old_chat", "--days", "0", stdout=out)
    assert messages(kept) == 0


@pytest.mark.django_db(transaction=True)
async def test_the_ticker_deletes_expired_chat_at_most_once_an_hour(settings, monkeypatch):
    from asgiref.sync import sync_to_async

    settings.CHAT_RETENTION_DAYS = 30
    code = await sync_to_async(room_with_chat)("Ann", closed_at=T0)
    calls = []

    def counted(**kwargs):
        calls.append(kwargs)
        return chat_delete_expired(**kwargs)

    monkeypatch.setattr(ticker_module, "chat_delete_expired", counted)
    ticker = Ticker(presence=None)  # type: ignore[arg-type]
    now = T0 + timedelta(days=31)
    await ticker._purge_chat(now)
    assert calls == [{"now": now, "keep": KEEP}]
    assert await sync_to_async(messages)(code) == 0
    await ticker._purge_chat(now + timedelta(minutes=5))  # within the hour: not again
    assert len(calls) == 1
    ticker.last_chat_purge -= ticker_module.CHAT_PURGE_SECONDS
    await ticker._purge_chat(now + timedelta(hours=1))
    assert len(calls) == 2
