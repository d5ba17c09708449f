"""``manage.py delete_old_chat``: delete the chat of rooms closed more than CHAT_RETENTION_DAYS ago.

Each server process does it too, once an hour (``lobby.realtime.ticker``); the command is for a
deployment that wants it at a time of its own, or at once with ``--days``.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from lobby.chat.services import chat_delete_expired


class Command(BaseCommand):
    help = "Delete the chat messages of rooms closed more than CHAT_RETENTION_DAYS days ago (default 30)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=float, default=None, help="override CHAT_RETENTION_DAYS")

    def handle(self, *args: Any, **options: Any) -> None:  # Any: Django's BaseCommand.handle
        days = options["days"] if options["days"] is not None else settings.CHAT_RETENTION_DAYS
        deleted = chat_delete_expired(now=timezone.now(), keep=timedelta(days=days))
        self.stdout.write(f"deleted {deleted} chat message(s) of rooms closed over {days:g} day(s) ago")
