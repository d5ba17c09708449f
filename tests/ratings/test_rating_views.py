"""The ratings REST API, and the OpenAPI schema of the whole REST API."""

from __future__ import annotations

import io

import pytest
import yaml
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from ratings import glicko2
from ratings.models import PlayerRating
from ratings.services import established_until
from tests.ratings.ratingkit import RED_WINS, at, make_table, play_game

pytestmark = pytest.mark.django_db

SCHEMA_PATHS = {
    "/api/session",
    "/api/rooms",
    "/api/rooms/{code}",
    "/api/games/{game_id}",
    "/api/ratings",
    "/api/players/{player_id}",
    "/api/accounts/register",
    "/api/accounts/login",
    "/api/accounts/logout",
    "/api/accounts/me",
}


def establish(player, rating: float) -> None:
    """Make ``player`` an established player (RD 60), rated just now."""
    now = timezone.now()
    PlayerRating.objects.update_or_create(
        player=player,
        defaults={
            "rating": rating, "rd": 60.0, "games": 30, "last_rated_at": now,
            "established_until": established_until(glicko2.Rating(rating, 60.0), rated_at=now),
        },
    )


def test_leaderboard_endpoint_pages_and_includes_provisional_on_request():
    tables = [make_table(names=(f"A{i}", f"B{i}")) for i in range(3)]
    for i, table in enumerate(tables):
        establish(table.ann, 1600.0 + 50 * i)
    play_game(tables[0], RED_WINS, now=timezone.now())  # A0 beats B0, who is provisional
    client = Client()
    board = client.get("/api/ratings", {"limit": 2}).json()
    assert board["count"] == 3 and board["limit"] == 2 and board["offset"] == 0
    assert [r["player"]["name"] for r in board["results"]] == ["A2", "A1"]
    rest = client.get("/api/ratings?limit=2&offset=2").json()
    assert [(r["rank"], r["player"]["name"]) for r in rest["results"]] == [(3, "A0")]
    everyone = client.get("/api/ratings?include_provisional=true&limit=10").json()
    assert everyone["count"] == 4 and everyone["results"][-1]["player"]["name"] == "B0"
    assert everyone["results"][-1]["provisional"] is True


@pytest.mark.parametrize("query", ["limit=0", "limit=101", "offset=-1", "limit=x", "include_provisional=maybe"])
def test_leaderboard_refuses_a_bad_query(query):
    response = Client().get(f"/api/ratings?{query}")
    assert response.status_code == 400 and response.json()["code"] == "bad_request"


def test_player_endpoint():
    table = make_table()
    game = play_game(table, RED_WINS, now=at())
    page = Client().get(f"/api/players/{table.ann.id}").json()
    assert page["id"] == str(table.ann.id) and page["games"] == 1 and page["wins"] == 1
    assert page["recent_games"][0]["id"] == str(game.id) and page["recent_games"][0]["result"] == "win"
    assert len(page["history"]) == 1
    for bad in ("nobody", "00000000-0000-0000-0000-000000000000"):
        missing = Client().get(f"/api/players/{bad}")
        assert missing.status_code == 404 and missing.json()["code"] == "no_player"


def test_schema_covers_the_whole_rest_api():
    response = Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert set(schema["paths"]) >= SCHEMA_PATHS
    assert schema["paths"]["/api/ratings"]["get"]["operationId"] == "ratings_leaderboard"
    assert {p["name"] for p in schema["paths"]["/api/ratings"]["get"]["parameters"]} == {
        "limit", "offset", "include_provisional", "bots",
    }
    assert "deviceSession" in schema["components"]["securitySchemes"]


def test_schema_generates_without_warnings_or_errors():
    out = io.StringIO()
    call_command("spectacular", "--validate", "--fail-on-warn", stdout=out)
    assert set(yaml.safe_load(out.getvalue())["paths"]) >= SCHEMA_PATHS
