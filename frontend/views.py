"""Web pages. Each view only renders a shell; the page's ES module talks to the REST API and websocket."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie


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
