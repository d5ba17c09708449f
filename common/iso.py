"""Instants as every frame and every answer writes them."""

from __future__ import annotations

from datetime import UTC, datetime


def iso(moment: datetime | None) -> str | None:
    """An instant as ISO-8601 UTC with milliseconds and a ``Z``; None stays None."""
    if moment is None:
        return None
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
