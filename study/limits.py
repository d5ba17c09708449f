"""The study tools' limits, counted in the shared cache so they hold across processes: the analysis board's
requests per address, and one stream of a player's records at a time per address."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext

from common.errors import RateLimited
from common.ratelimit import Quota, quota_take

STREAM_LEASE_SECONDS = 300
"""How long a records stream holds its address's slot past its last page (a stream that dies unreleased frees
it then); each page sent renews it, and the stream waits for its reader (``config.serve.body_sent``)."""


def analysis_quota_take(*, address: str, now: datetime) -> None:
    """Count one analysis board request for the address (``ANALYSIS_BOARD_PER_MINUTE``). An unreachable
    cache counts nothing.

    Raises:
        RateLimited: the quota is spent.
    """
    quota = Quota("analysis-board-by-address", settings.ANALYSIS_BOARD_PER_MINUTE, 60)
    quota_take(cache, [(quota, address)], now=now, message=gettext("Too many analysis requests."),
               unreachable_passes=True)


def _stream_key(address: str) -> str:
    return f"study:records-stream:{address}"


def records_stream_take(*, address: str, holder: str) -> None:
    """Take the address's one records stream.

    Raises:
        RateLimited: a stream of the address is open.
    """
    if not cache.add(_stream_key(address), holder, timeout=STREAM_LEASE_SECONDS):
        raise RateLimited(5, message=gettext("One download of game records at a time."))


def records_stream_renew(*, address: str, holder: str) -> None:
    """Keep the address's slot ``STREAM_LEASE_SECONDS`` more while ``holder``'s stream is still being read."""
    if cache.get(_stream_key(address)) == holder:
        cache.touch(_stream_key(address), STREAM_LEASE_SECONDS)


def records_stream_release(*, address: str, holder: str) -> None:
    if cache.get(_stream_key(address)) == holder:
        cache.delete(_stream_key(address))
