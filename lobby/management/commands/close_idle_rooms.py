"""``manage.py close_idle_rooms``: close rooms with no activity for ROOM_IDLE_HOURS (default 24).

Schedule it every few minutes (cron, a systemd timer or a Kubernetes CronJob); see the README.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from lobby.rooms.services import rooms_close_idle


class Command(BaseCommand):
    help = "Close rooms with no activity for ROOM_IDLE_HOURS hours (default 24)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--hours", type=float, default=None, help="override ROOM_IDLE_HOURS")

    def handle(self, *args: Any, **options: Any) -> None:  # Any: Django's BaseCommand.handle
        hours = options["hours"] if options["hours"] is not None else settings.ROOM_IDLE_HOURS
        closed = rooms_close_idle(now=timezone.now(), idle=timedelta(hours=hours))
        self.stdout.write(f"closed {len(closed)} idle room(s)" + (f": {' '.join(closed)}" if closed else ""))
