"""Every integer in the leaderboard's query is bounded: out of range is a 400, never a database error."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone

from tests.ratings.ratingkit import RED_WINS, make_table, play_game

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "query",
    [
        "offset=100000000000000000000",
        "offset=9223372036854775808",  # one past the largest 64-bit integer
        "offset=1000000001",
        "limit=100000000000000000000",
        "limit=-100000000000000000000",
        "offset=" + "9" * 5000,
    ],
)
def test_out_of_range_integers_are_refused(query):
    response = Client().get(f"/api/ratings?{query}")
    assert response.status_code == 400
    assert response.json()["code"] == "bad_request" and response.json()["message"]


def test_the_largest_offset_answers_an_empty_page():
    play_game(make_table(), RED_WINS, now=timezone.now())
    response = Client().get("/api/ratings?include_provisional=true&offset=1000000000")
    assert response.status_code == 200
    page = response.json()
    assert page["count"] == 2 and page["offset"] == 1_000_000_000 and page["results"] == []
