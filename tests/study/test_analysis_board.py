"""GET /api/analysis: the engine's word within the CPU budget, cached by symmetry class, rate-limited."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client

from tests.records import DRAWN_RECORD, RED_VERTICAL_WIN

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def test_the_empty_board_is_unknown_with_a_best_move_within_300_ms_of_cpu(settings):
    assert settings.ANALYSIS_BOARD_BUDGET_MS == 300
    answer = Client().get("/api/analysis").json()
    assert (answer["ply"], answer["to_move"], answer["verdict"], answer["plies"]) == (0, "red", "unknown", None)
    assert len(answer["best"]) == 1 and len(answer["moves"]) == 16
    assert answer["stopped"] and not answer["complete"] and answer["budget_ms"] == 300
    assert answer["spent_ms"] <= 300  # the CPU time the code measured on its own thread


def test_answers_are_cached_by_symmetry_class_and_turned_to_the_asked_orientation(settings):
    settings.ANALYSIS_BOARD_BUDGET_MS = 60
    client = Client()
    record = "a1,a4,b1,b4,c1,c4,d4"  # Yellow: d1 blocks; anything else loses at once
    first = client.get("/api/analysis", {"record": record}).json()
    assert not first["cached"]
    assert {m["peg"]: m["verdict"] for m in first["moves"]}["a1"] == "loss"
    # The mirror image left-right: a1 <-> d1, b1 <-> c1.
    mirrored = client.get("/api/analysis", {"record": "d1,d4,c1,c4,b1,b4,a4"}).json()
    assert mirrored["cached"]
    flip = str.maketrans("abcd", "dcba")
    assert sorted((m["peg"].translate(flip), m["verdict"], m["plies"]) for m in mirrored["moves"]) == \
        sorted((m["peg"], m["verdict"], m["plies"]) for m in first["moves"])
    assert [peg.translate(flip) for peg in mirrored["best"]] == first["best"]
    assert {(t["peg"], t["colour"]) for t in first["threats"]} >= {("d1", "red")}
    # A larger budget than the cached one computes again (unless the answer was final).
    again = client.get("/api/analysis", {"record": record, "budget": 120}).json()
    assert again["cached"] == first["complete"]


def test_bad_records_and_the_rate_limit(settings):
    settings.ANALYSIS_BOARD_PER_MINUTE = 2
    settings.ANALYSIS_BOARD_BUDGET_MS = 20
    client = Client()
    refused = client.get("/api/analysis", {"record": "a1,a1,a1,a1,a1"})
    assert refused.status_code == 400 and refused.json()["code"] == "bad_record"
    assert "Move 3" in refused.json()["message"]
    assert client.get("/api/analysis", {"record": "a1"}).status_code == 200
    limited = client.get("/api/analysis", {"record": "a1"})
    assert limited.status_code == 429 and limited.json()["code"] == "rate_limited" and limited["Retry-After"]


def test_a_finished_position_says_who_won_with_its_line_and_has_nothing_left_to_play():
    client = Client()
    # Red's fourth bead on a1 wins; Yellow's three on b1 would be a playable threat if the game went on.
    won = client.get("/api/analysis", {"record": RED_VERTICAL_WIN.replace(" ", ",")}).json()
    assert (won["to_move"], won["winner"], won["verdict"], won["plies"]) == (None, "red", "loss", 0)
    assert won["line"] == [{"peg": "a1", "level": level} for level in (1, 2, 3, 4)]
    assert (won["moves"], won["best"], won["threats"]) == ([], [], [])
    drawn = client.get("/api/analysis", {"record": DRAWN_RECORD.replace(" ", ",")}).json()
    assert (drawn["to_move"], drawn["winner"], drawn["line"], drawn["verdict"], drawn["threats"]) == \
        (None, None, None, "draw", [])
    playing = client.get("/api/analysis", {"record": "a1,b1,a1,b1,a1,b1"}).json()
    assert (playing["to_move"], playing["winner"], playing["line"]) == ("red", None, None)
    assert {(t["colour"], t["peg"], t["playable"]) for t in playing["threats"]} >= {("red", "a1", True)}
