"""``manage.py close_idle_runs``: close the arcade's runs idle for ARCADE_IDLE_HOURS (default 24), and those
that can change no more but were left open; each is replayed and ranked as it closes.

Schedule it every few minutes beside ``close_idle_rooms`` (cron, a systemd timer or a Kubernetes CronJob);
see the README.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from arcade.services import runs_close_idle


class Command(BaseCommand):
    help = "Close the arcade's runs idle for ARCADE_IDLE_HOURS hours (default 24), replayed and ranked."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--hours", type=float, default=None, help="override ARCADE_IDLE_HOURS")

    def handle(self, *args: Any, **options: Any) -> None:  # Any: Django's BaseCommand.handle
        hours = options["hours"] if options["hours"] is not None else settings.ARCADE_IDLE_HOURS
        closed = runs_close_idle(now=timezone.now(), idle=timedelta(hours=hours))
        self.stdout.write(f"closed {len(closed)} run(s)" + (f": {' '.join(closed)}" if closed else ""))
