"""``manage.py explorer_learn``: learn every finished game the opening explorer has not (docs/records.md)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.utils import timezone

from study.explorer import explorer_learn_missed


class Command(BaseCommand):
    help = "Learn every finished game the opening explorer has not learned yet (each game once)."

    def handle(self, *args: Any, **options: Any) -> None:
        learned = explorer_learn_missed(now=timezone.now())
        self.stdout.write(f"{learned} games learned")
