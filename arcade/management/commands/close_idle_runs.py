"""``manage.py close_idle_runs``: close the arcade's runs idle for 24 hours (``--hours``), and those
that can change no more but were left open; each is replayed and ranked as it closes.

Schedule it every few minutes beside ``close_idle_rooms`` (cron, a systemd timer or a Kubernetes CronJob);
see the README.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from arcade.services import IDLE, runs_close_idle


class Command(BaseCommand):
    help = "Close the arcade's runs idle for 24 hours (--hours), replayed and ranked."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--hours", type=float, default=None, help="idle this many hours (default 24)")

    def handle(self, *args: Any, **options: Any) -> None:  # Any: Django's BaseCommand.handle
        idle = IDLE if options["hours"] is None else timedelta(hours=options["hours"])
        closed = runs_close_idle(now=timezone.now(), idle=idle)
        self.stdout.write(f"closed {len(closed)} run(s)" + (f": {' '.join(closed)}" if closed else ""))
