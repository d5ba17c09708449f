"""High scores (one row per player, by period, people's and bots' boards), bots through a token, the player
page's bests, the quotas and the idle close."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime, timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from arcade.limits import StepWindows, steps_quota_take
from arcade.loop import ArcadeSweep
from arcade.models import Run
from arcade.selectors import period_start
from common.errors import RateLimited
from live.runtime import LOOP_SERVICES
from tests.arcade.arcadekit import device, move, play_moves, post, start
from tests.bots.botkit import PASSWORD, Api, account, bot, session_post, signed_in, token_for

pytestmark = pytest.mark.django_db


def _end(client: Client, run: dict, **extra: object) -> dict:
    status, body = post(client, f"/api/arcade/runs/{run['id']}/end", {}, **extra)
    assert status == 200, body
    return body


def _scores(query: str) -> dict:
    answer = Client().get(f"/api/arcade/scores?{query}")
    assert answer.status_code == 200, answer.content
    return answer.json()


def test_one_row_per_player_their_best_run_best_first():
    ann, ann_id = device("Ann")
    bob, bob_id = device("Bob")
    peaks = {}
    for client, name, counts in ((ann, "Ann", (3, 12)), (bob, "Bob", (6,))):
        for count in counts:
            run = start(client, "cube3")
            peaks.setdefault(name, []).append(_end(client, play_moves(client, run, count, seed=count))["peak"])
    board = _scores("mode=cube3")
    assert [row["player"]["name"] for row in board["rows"]] == sorted(
        ("Ann", "Bob"), key=lambda name: -max(peaks[name]))
    assert {row["player"]["name"]: row["score"] for row in board["rows"]} == {n: max(p) for n, p in peaks.items()}
    assert [row["rank"] for row in board["rows"]] == [1, 2] and board["more"] is False
    row = board["rows"][0]
    assert set(row) == {"rank", "player", "score", "top_tile", "moves", "date", "run"}
    assert Client().get(f"/api/arcade/runs/{row['run']}").json()["ranked_score"] == row["score"]
    assert _scores("mode=classic")["rows"] == []


def test_the_periods_count_runs_closed_since_midnight_and_monday_utc():
    now = datetime(2026, 12, 3, 15, 30, tzinfo=UTC)  # a Thursday
    assert period_start("day", now=now) == datetime(2026, 12, 3, tzinfo=UTC)
    assert period_start("week", now=now) == datetime(2026, 11, 30, tzinfo=UTC)
    assert period_start("all", now=now) is None
    client, _ = device()
    run = start(client, "cube2")
    _end(client, play_moves(client, run, 4))
    assert len(_scores("mode=cube2&period=day")["rows"]) == 1
    Run.objects.filter(pk=run["id"]).update(closed_at=timezone.now() - timedelta(days=8))
    assert _scores("mode=cube2&period=week")["rows"] == _scores("mode=cube2&period=day")["rows"] == []
    assert len(_scores("mode=cube2&period=all")["rows"]) == 1


@pytest.mark.parametrize(("query", "code"), [("mode=cube9", "bad_mode"), ("", "bad_mode"),
                                             ("mode=cube2&period=year", "bad_request"),
                                             ("mode=cube2&board=cats", "bad_request"),
                                             ("mode=cube2&page=0", "bad_request")])
def test_a_bad_scores_query_is_400(query, code):
    answer = Client().get(f"/api/arcade/scores?{query}")
    assert (answer.status_code, answer.json()["code"]) == (400, code)


def test_a_bot_plays_through_its_token_and_ranks_on_the_bots_board():
    robo, secret = bot("robo")
    api = Api(secret)
    answer = api.post("/api/arcade/runs", {"mode": "classic"})
    assert answer.status_code == 201 and answer.json()["bot"] is True
    run = answer.json()
    assert run["player"] == {"id": str(robo.id), "name": robo.name, "title": "BOT"}
    n = 0
    for direction in ("left", "up", "right", "down") * 3:
        body = api.post(f"/api/arcade/runs/{run['id']}/move", {"dir": direction, "n": n}).json()
        n = body["steps"]
    assert api.post(f"/api/arcade/runs/{run['id']}/end", {}).status_code == 200
    bots = _scores("mode=classic&board=bots")["rows"]
    assert [row["player"]["title"] for row in bots] == ["BOT"] and _scores("mode=classic")["rows"] == []
    # An account's own token plays as a bot too; its browser session as a person.
    ann = account("anna")
    assert Api(token_for(ann)).post("/api/arcade/runs", {"mode": "cube2"}).json()["bot"] is True
    assert Api("nonsense").post("/api/arcade/runs", {"mode": "cube2"}).status_code == 401


def test_the_player_page_shows_each_modes_best():
    client, player_id = device()
    run = start(client, "cube2")
    ended = _end(client, play_moves(client, run, 6))
    page = Client().get(f"/api/players/{player_id}").json()
    best = page["arcade"]["best"]
    assert set(best) == {"classic", "cube2", "cube3", "cube3-hard"}
    assert best["cube2"]["score"] == ended["peak"] and best["cube2"]["run"] == run["id"] and best["classic"] is None


def test_runs_started_are_limited_per_player_and_address(settings):
    settings.ARCADE_RUNS_PER_HOUR_PER_PLAYER = 2
    client, _ = device()
    start(client, "cube2")
    start(client, "cube3")
    answer = client.post("/api/arcade/runs", {"mode": "classic"}, content_type="application/json")
    assert answer.status_code == 429 and answer.json()["code"] == "rate_limited" and int(answer["Retry-After"]) >= 1
    settings.ARCADE_RUNS_PER_HOUR_PER_PLAYER = 100
    settings.ARCADE_RUNS_PER_HOUR_PER_ADDRESS = 2  # the two runs above came from this address too
    assert post(device("Bob")[0], "/api/arcade/runs", {"mode": "cube2"})[0] == 429  # the same address


def test_moves_are_limited_per_second_per_run(settings):
    settings.ARCADE_MOVES_PER_SECOND_PER_RUN = 3
    client, _ = device()
    run = start(client, "classic")
    codes = [move(client, run["id"], "left", run["steps"])[0] for _ in range(6)]
    assert 429 in codes and codes.count(200) <= 4


def test_a_runs_steps_are_counted_in_a_sliding_second():
    windows = StepWindows(size=2)
    assert [windows.take("a", allowed=3, at=10.0 + 0.1 * i) for i in range(3)] == [None, None, None]
    assert windows.take("a", allowed=3, at=10.5) == pytest.approx(0.5)  # the first of the three leaves at 11.0
    assert windows.take("b", allowed=3, at=10.5) is None  # each run its own
    assert windows.take("a", allowed=3, at=11.0) is None  # the refused step was not counted
    assert windows.take("a", allowed=3, at=11.05) == pytest.approx(0.05)
    windows.take("c", allowed=3, at=11.05)  # a third run: the least recently stepped (b) is forgotten
    assert windows.take("a", allowed=3, at=11.06) is not None and windows.take("b", allowed=1, at=11.06) is None


def test_a_step_over_the_quota_is_refused_with_its_wait(settings):
    settings.ARCADE_MOVES_PER_SECOND_PER_RUN = 2
    run = str(uuid.uuid4())
    at = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)
    steps_quota_take(run_id=run, now=at)
    steps_quota_take(run_id=run, now=at + timedelta(milliseconds=100))
    with pytest.raises(RateLimited) as refused:
        steps_quota_take(run_id=run, now=at + timedelta(milliseconds=200))
    assert refused.value.code == "rate_limited" and refused.value.retry_after == 1
    steps_quota_take(run_id=run, now=at + timedelta(seconds=1))  # the first step left the window


def test_idle_runs_are_closed_and_ranked_by_the_command():
    client, _ = device()
    idle, fresh = start(client, "cube3"), start(client, "cube2")
    played = play_moves(client, idle, 5)
    Run.objects.filter(pk=idle["id"]).update(played_at=timezone.now() - timedelta(hours=25))
    out = StringIO()
    call_command("close_idle_runs", stdout=out)
    assert out.getvalue().strip() == f"closed 1 run(s): {idle['id']}"
    closed = Run.objects.get(pk=idle["id"])
    assert closed.status == "ended" and closed.ranked_score == played["peak"]
    assert Run.objects.get(pk=fresh["id"]).closed_at is None
    status, body = move(client, idle["id"], "left", closed.steps)
    assert (status, body["code"]) == (409, "run_ended")


@pytest.mark.django_db(transaction=True)
def test_every_event_loop_sweeps_the_idle_runs():
    assert ArcadeSweep in LOOP_SERVICES
    client, _ = device()
    idle = start(client, "cube2")
    Run.objects.filter(pk=idle["id"]).update(played_at=timezone.now() - timedelta(hours=25))
    assert asyncio.run(ArcadeSweep(None).sweep(now=timezone.now())) == [idle["id"]]  # type: ignore[arg-type]
    assert Run.objects.get(pk=idle["id"]).closed_at is not None


def test_an_account_plays_through_its_session_and_ranks_among_the_players():
    ann = account("anna")
    browser = signed_in(ann)
    run = _json(session_post(browser, "/api/arcade/runs", {"mode": "cube2"}), 201)
    assert run["player"]["id"] == str(ann.id) and run["bot"] is False
    steps = 0
    for direction in ("left", "backward", "down", "right", "forward", "up") * 2:
        steps = _json(session_post(browser, f"/api/arcade/runs/{run['id']}/move", {"dir": direction, "n": steps}),
                      200)["steps"]
    ended = _json(session_post(browser, f"/api/arcade/runs/{run['id']}/end"), 200)
    assert [(row["player"]["id"], row["score"]) for row in _scores("mode=cube2")["rows"]] == [(str(ann.id),
                                                                                              ended["peak"])]


def test_a_guest_who_logs_in_plays_their_open_runs_on_as_the_account():
    ann = account("anna")
    signed_in(ann)
    own_classic = _json(session_post(signed_in(ann), "/api/arcade/runs", {"mode": "classic"}), 201)
    guest = Client(enforce_csrf_checks=True)
    guest.get("/api/session")
    cube2 = _json(session_post(guest, "/api/arcade/runs", {"mode": "cube2"}), 201)
    classic = _json(session_post(guest, "/api/arcade/runs", {"mode": "classic"}), 201)
    _json(session_post(guest, "/api/accounts/login", {"username": "anna", "password": PASSWORD}), 200)
    handed = Run.objects.get(pk=cube2["id"])
    assert str(handed.player_id) == str(ann.id) and handed.closed_at is None
    assert Run.objects.get(pk=classic["id"]).closed_at is not None  # the account had one of its own
    assert Run.objects.get(pk=own_classic["id"]).closed_at is None
    assert _json(session_post(guest, f"/api/arcade/runs/{cube2['id']}/move", {"dir": "left", "n": 0}), 200)


def _json(answer, status: int) -> dict:  # type: ignore[no-untyped-def]
    assert answer.status_code == status, answer.content
    return answer.json()


def test_a_run_that_cannot_be_closed_leaves_the_others_closed(caplog):
    client, _ = device()
    broken, idle = start(client, "cube3"), start(client, "cube2")
    Run.objects.update(played_at=timezone.now() - timedelta(hours=25))
    Run.objects.filter(pk=broken["id"]).update(status="bogus")  # a row the engine cannot read
    from arcade.services import runs_close_idle

    assert runs_close_idle(now=timezone.now()) == [idle["id"]]
    assert Run.objects.get(pk=idle["id"]).closed_at is not None and Run.objects.get(pk=broken["id"]).closed_at is None
    assert f"arcade run {broken['id']} could not be closed" in caplog.messages
