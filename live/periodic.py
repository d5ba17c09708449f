"""The scaffolding of a loop service's periodic task: a step called with the time every so often, a step
that fails logged and the next one run (the arenas' and quick pairing's waves, the challenge sweep, the
mail loop, the correspondence loop)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from datetime import datetime
from typing import Protocol

from django.utils import timezone

log = logging.getLogger(__name__)


class Step(Protocol):
    """One round of a loop, given the time."""

    def __call__(self, *, now: datetime) -> Awaitable[object]: ...


async def run_every(seconds: float, step: Step, *, name: str) -> None:
    """Call ``step`` with the time every ``seconds`` until cancelled; a step that fails is logged and the
    next one runs (a database hiccup must not stop pairing for good)."""
    while True:
        await asyncio.sleep(seconds)
        try:
            await step(now=timezone.now())
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("%s failed", name)
