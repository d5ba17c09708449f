"""The Django admin shows staff each game's analysis, read-only: its state and what it found."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games import cpu_pool
from games.analyses import analyses_claim, analysis_store
from games.models import GameAnalysis
from tests.games.analysiskit import BLUNDER_GAME, at, two_player_game

pytestmark = pytest.mark.django_db

ANALYSES = "/admin/games/gameanalysis/"


def test_staff_see_each_analysis_and_its_moments_but_change_nothing(admin_client):
    code, _, _, game = two_player_game(BLUNDER_GAME)
    _, _, _, waiting = two_player_game(BLUNDER_GAME, names=("Cy", "Di"))
    [job] = analyses_claim(now=at(100), lease=timedelta(minutes=3))  # one at a time: the other waits
    done_id = job.game_id
    analysis_store(game_id=done_id, result=cpu_pool._analyse(job.record, *cpu_pool.analysis_budget()), now=at(101))

    page = admin_client.get(ANALYSES)
    assert page.status_code == 200
    assert b"Done" in page.content and b"Queued" in page.content
    assert admin_client.get(ANALYSES, {"q": code}).status_code == 200

    url = f"{ANALYSES}{done_id}/change/"
    detail = admin_client.get(url)
    assert detail.status_code == 200
    assert b"after this Red wins by force in 1" in detail.content  # a moment, in words
    assert admin_client.post(url, {"status": "queued"}).status_code == 403
    assert admin_client.get(f"{ANALYSES}add/").status_code == 403
    assert admin_client.post(f"{ANALYSES}{done_id}/delete/", {"post": "yes"}).status_code == 403
    assert GameAnalysis.objects.get(pk=done_id).status == "done"
    assert {game.pk, waiting.pk} == set(GameAnalysis.objects.values_list("pk", flat=True))
