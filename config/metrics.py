"""``GET /metrics``: this process's metrics in the Prometheus text format, and who may read them.

The counters and histograms are defined in :mod:`common.metrics` and recorded by every layer. The
numbers of rooms open and games being played are counted in the database when Prometheus scrapes
(two indexed ``COUNT`` queries), so they are the same on every process: aggregate them with ``max``,
not ``sum``.

Access: with neither ``METRICS_ALLOWED_ADDRESSES`` nor ``METRICS_TOKEN`` set anyone who reaches the
process may read them; with either set a request must come from an allowed address or carry
``Authorization: Bearer <METRICS_TOKEN>``.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
from collections.abc import Iterable, Iterator

from django.conf import settings
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from prometheus_client import REGISTRY
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.exposition import choose_encoder
from prometheus_client.registry import Collector

from games.models import Game, GameStatus
from lobby.models import Room

log = logging.getLogger(__name__)

ROOMS_OPEN = "fourinarow_rooms_open"
GAMES_PLAYING = "fourinarow_games_playing"


class DatabaseCounts(Collector):
    """Rooms open and games being played, counted when scraped."""

    def describe(self) -> Iterable[Metric]:
        # Registration asks for the names; answering without a query keeps start-up off the database.
        return [
            GaugeMetricFamily(ROOMS_OPEN, "Rooms not closed (counted in the database at scrape time)."),
            GaugeMetricFamily(GAMES_PLAYING, "Games being played (counted in the database at scrape time)."),
        ]

    def collect(self) -> Iterator[Metric]:
        try:
            rooms = Room.objects.filter(closed_at=None).count()
            games = Game.objects.filter(status=GameStatus.PLAYING).count()
        except DatabaseError as exc:  # the rest of the metrics still answer; the gap shows the outage
            log.warning("metrics: could not count rooms and games: %s", exc)
            return
        yield GaugeMetricFamily(ROOMS_OPEN, "Rooms not closed (counted in the database at scrape time).",
                                value=rooms)
        yield GaugeMetricFamily(GAMES_PLAYING, "Games being played (counted in the database at scrape time).",
                                value=games)


REGISTRY.register(DatabaseCounts())


def _address_allowed(address: str, networks: Iterable[str]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in ipaddress.ip_network(net, strict=False) for net in networks)


def _token_presented(request: HttpRequest, token: str) -> bool:
    scheme, _, presented = request.headers.get("Authorization", "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(presented.strip().encode(), token.encode())


def metrics_allowed(request: HttpRequest) -> bool:
    """Whether ``request`` may read the metrics under the ``METRICS_*`` settings."""
    networks: list[str] = list(settings.METRICS_ALLOWED_ADDRESSES)
    token: str = settings.METRICS_TOKEN
    if not networks and not token:
        return True
    if token and _token_presented(request, token):
        return True
    return bool(networks) and _address_allowed(str(request.META.get("REMOTE_ADDR", "")), networks)


def metrics(request: HttpRequest) -> HttpResponse:
    """This process's metrics in the format the ``Accept`` header asks for (the Prometheus text format
    0.0.4 by default), or 403 with the usual error body."""
    if not metrics_allowed(request):
        return JsonResponse(
            {"code": "forbidden", "message": _("The metrics are not open to this address without the bearer token.")},
            status=403,
        )
    # The library picks the format the scraper asks for (OpenMetrics, or the classic text format).
    encode, content_type = choose_encoder(request.headers.get("Accept", ""))
    return HttpResponse(encode(REGISTRY), content_type=content_type)
