"""GET /api/games/{id}/analysis: its states, its errors, and its place in the OpenAPI schema."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
import yaml
from django.test import Client

from games import cpu_pool
from games.analyses import analyses_claim, analysis_store
from games.engine.analyse import ANALYSIS_VERSION, analyse_game
from games.models import AnalysisStatus, GameAnalysis
from games.selectors import analysis_summary
from lobby.rooms.services import room_close
from tests.games.analysiskit import BLUNDER_GAME, at, two_player_game

pytestmark = pytest.mark.django_db


def url(game_id: object) -> str:
    return f"/api/games/{game_id}/analysis"


def test_a_finished_game_reports_queued_running_then_done():
    _, _, _, game = two_player_game(BLUNDER_GAME)
    client = Client()
    queued = client.get(url(game.pk)).json()
    assert queued["status"] == "queued" and queued["version"] == ANALYSIS_VERSION
    assert (queued["plies"], queued["moments"], queued["summary"]) == (None, None, None)

    [job] = analyses_claim(now=at(100), lease=timedelta(minutes=3))
    assert client.get(url(game.pk)).json()["status"] == "running"

    analysis_store(game_id=job.game_id, result=cpu_pool._analyse(job.record, *cpu_pool.analysis_budget()), now=at(101))
    done = client.get(url(game.pk)).json()
    assert done["status"] == "done" and done["game"] == str(game.pk)
    assert [entry["played"] for entry in done["plies"]] == [*BLUNDER_GAME.split(), None]
    assert done["plies"][-1]["eval"]["kind"] == "final"
    assert [(m["move_number"], m["colour"], m["kind"]) for m in done["moments"]] == [
        (6, "yellow", "blunder"),
        (7, "red", "missed_win"),
    ]
    # The summary counts each colour's moves and marks.
    red, yellow = done["summary"]["red"], done["summary"]["yellow"]
    assert (red["moves"], yellow["moves"]) == (4, 4)
    assert (red["missed_win"], red["blunder"], yellow["blunder"], yellow["missed_win"]) == (1, 0, 1, 0)
    marks = [entry["mark"] for entry in done["plies"]]
    assert red["best"] == sum(1 for i, m in enumerate(marks) if m == "best" and i % 2 == 0)
    assert GameAnalysis.objects.get().status == AnalysisStatus.DONE


def test_errors_are_clear_json():
    client = Client()
    assert client.get(url("nope")).json()["code"] == "no_game"
    assert client.get(url("nope")).status_code == 404
    assert client.get(url(uuid.uuid4())).status_code == 404

    code, _, _, playing = two_player_game("a1 b1")
    response = client.get(url(playing.pk))
    assert (response.status_code, response.json()["code"]) == (409, "game_playing")

    room_close(code=code, now=at(50))
    response = client.get(url(playing.pk))
    assert (response.status_code, response.json()["code"]) == (404, "no_analysis")
    assert not GameAnalysis.objects.exists()


def test_the_endpoint_is_in_the_openapi_schema():
    schema = yaml.safe_load(Client().get("/api/schema/").content)
    operation = schema["paths"]["/api/games/{game_id}/analysis"]["get"]
    assert set(operation["responses"]) == {"200", "404", "409"}
    out = schema["components"]["schemas"]["GameAnalysisOut"]
    assert {"status", "version", "plies", "moments", "summary"} <= set(out["properties"])


def test_the_summary_counts_slower_wins():
    result = analyse_game("d2 b3 c1 a4 d1 c4 d4 b4 a2", node_budget=30_000, time_budget_s=None).to_json()
    summary = analysis_summary(result)
    assert summary["red"]["slower_win"] == 1 and summary["yellow"]["blunder"] == 1
    assert summary["red"]["best"] == 1  # d4; a2 is no longer "best"
