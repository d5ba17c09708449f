"""Web pages. Each view only renders a shell; the page's ES module talks to the REST API and websocket."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.http import FileResponse, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_POST, require_safe
from django.views.i18n import set_language as django_set_language

from players.identity import session_player
from players.language import supported
from players.preferences import preferences_change

FAVICON = Path(__file__).resolve().parent / "static" / "frontend" / "favicon.ico"


@ensure_csrf_cookie
def home(request: HttpRequest) -> HttpResponse:
    """Start a game against the CPU, create a party room, join by code, continue a running game."""
    return render(request, "frontend/home.html", {"page": "home"})


@ensure_csrf_cookie
def room(request: HttpRequest, code: str) -> HttpResponse:
    """One room: seats, house rules, the 3D board and the top view."""
    return render(request, "frontend/room.html", {"page": "room", "code": code.upper()})


@ensure_csrf_cookie
def ratings(request: HttpRequest) -> HttpResponse:
    """The leaderboard."""
    return render(request, "frontend/ratings.html", {"page": "ratings"})


@ensure_csrf_cookie
def player(request: HttpRequest, player_id: str) -> HttpResponse:
    """A player's rating history and recent games."""
    return render(request, "frontend/player.html", {"page": "player", "player_id": player_id})


@ensure_csrf_cookie
def replay(request: HttpRequest, game_id: str) -> HttpResponse:
    """Step through a finished (or running) game on the 3D board."""
    return render(request, "frontend/replay.html", {"page": "replay", "game_id": game_id})


@ensure_csrf_cookie
def analysis(request: HttpRequest) -> HttpResponse:
    """The analysis board: ``?record=`` the position, ``?line=`` the main line (docs/records.md)."""
    return render(request, "frontend/analysis.html", {"page": "analysis"})


@ensure_csrf_cookie
def arena(request: HttpRequest, arena_id: int) -> HttpResponse:
    """An arena: countdown, live standings, join / pause / withdraw, the podium at the end."""
    return render(request, "frontend/arena.html", {"page": "arena", "arena_id": arena_id})


@ensure_csrf_cookie
def challenges(request: HttpRequest) -> HttpResponse:
    """Your open challenges, in (Accept / Decline) and out (Cancel)."""
    minutes = round(settings.CHALLENGE_TTL_SECONDS / 60)
    return render(request, "frontend/challenges.html", {"page": "challenges", "ttl_minutes": minutes})


@ensure_csrf_cookie
def arenas(request: HttpRequest) -> HttpResponse:
    """The arenas running, upcoming and finished, and the form that creates one."""
    return render(request, "frontend/arenas.html", {"page": "arenas"})


@ensure_csrf_cookie
def my_games(request: HttpRequest) -> HttpResponse:
    """Your games: your turn (soonest deadline first) and waiting for the opponent, live and correspondence."""
    return render(request, "frontend/my_games.html", {"page": "my-games"})


@ensure_csrf_cookie
def account(request: HttpRequest) -> HttpResponse:
    """The signed-in account's page: its email address and emails, password, tokens, language, data, closing."""
    return render(request, "frontend/account.html", {"page": "account-settings"})


def puzzle(request: HttpRequest, puzzle_id: str = "") -> HttpResponse:
    """The puzzle trainer: one puzzle (or the next one near your puzzle rating), solved on the 3D board."""
    return render(request, "frontend/puzzle.html", {"page": "puzzle", "puzzle_id": puzzle_id})


@require_safe
def favicon(request: HttpRequest) -> FileResponse:
    """The site icon at the address browsers and other clients ask for without being told (pages link
    the SVG); drawn from frontend/static/frontend/favicon.svg by frontend/build_icons.py."""
    response = FileResponse(FAVICON.open("rb"), content_type="image/x-icon")
    response["Cache-Control"] = "public, max-age=86400"
    return response


@require_POST
def set_language(request: HttpRequest) -> HttpResponseBase:
    """The footer's switcher: Django's ``set_language`` (the language cookie, then back to ``next``, the
    page it was on), and the device's player's ``language`` preference, so that an account reads the site
    in it on every device (players.language)."""
    response = django_set_language(request)
    language = supported(request.POST.get("language"))
    player = session_player(request.session) if language is not None else None
    if player is not None:
        preferences_change(player=player, changes={"language": language}, now=timezone.now())
    return response
