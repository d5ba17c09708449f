"""The arcade's pages (docs/arcade.md, "Pages"): the hub, 2048, the high scores and a run's replay, each a
shell that its ES module (frontend/static/frontend/arcade/) fills from the arcade's API and socket; and the
arcade's service worker, served under /arcade/ so that its scope holds the game pages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_safe

SERVICE_WORKER = Path(__file__).resolve().parent / "static" / "frontend" / "arcade" / "sw.js"


def modes_shown() -> list[dict[str, Any]]:
    """The arcade's modes as the pages name them, with the page that plays each (the cubes' takes ``?mode=``)."""
    return [
        {"id": "classic", "name": "2048", "href": "/arcade/2048",
         "about": gettext("The classic: a 4×4 board, one new tile a move. 2048 is a milestone: play on.")},  # noqa: RUF001
        {"id": "cube2", "name": gettext("3D 2048 · 2×2×2"), "href": "/arcade/3d?mode=cube2",  # noqa: RUF001
         "about": gettext("A cube of 8 cells: reach 256. One undo.")},
        {"id": "cube3", "name": gettext("3D 2048 · 3×3×3"), "href": "/arcade/3d?mode=cube3",  # noqa: RUF001
         "about": gettext("27 cells in three layers: reach 2048. One undo.")},
        {"id": "cube3-hard", "name": gettext("3D 2048 · 3×3×3 Hard"), "href": "/arcade/3d?mode=cube3-hard",  # noqa: RUF001
         "about": gettext("Two new tiles after every move: reach 2048. One undo.")},
    ]


@ensure_csrf_cookie
def hub(request: HttpRequest) -> HttpResponse:
    """The four modes, each with your best and today's top scores."""
    return render(request, "frontend/arcade.html", {"page": "arcade", "modes": modes_shown()})


@ensure_csrf_cookie
def game_2048(request: HttpRequest) -> HttpResponse:
    """2048 on the 4x4: your saved run resumed, or Start."""
    return render(request, "frontend/arcade_2048.html", {"page": "arcade-2048"})


@ensure_csrf_cookie
def game_3d(request: HttpRequest) -> HttpResponse:
    """3D 2048 on the 2x2x2 or 3x3x3 cube (Normal or Hard, chosen on the page): your saved run resumed, or Start."""
    return render(request, "frontend/arcade_cube.html", {"page": "arcade-3d"})


@ensure_csrf_cookie
def scores(request: HttpRequest) -> HttpResponse:
    """The high scores of a mode (``?mode=``), all time, this week or today (``?period=``)."""
    return render(request, "frontend/arcade_scores.html", {"page": "arcade-scores", "modes": modes_shown()})


@ensure_csrf_cookie
def run(request: HttpRequest, run_id: str) -> HttpResponse:
    """A closed run replayed move by move, with its new tiles."""
    return render(request, "frontend/arcade_run.html", {"page": "arcade-run", "run_id": run_id})


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The arcade's service worker (arcade/sw.js): the pages under /arcade/ and their files, kept for offline."""
    response = HttpResponse(SERVICE_WORKER.read_bytes(), content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    return response
