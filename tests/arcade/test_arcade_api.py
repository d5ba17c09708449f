"""The arcade's REST API: starting, moving, retrying, undo, continue, end, the refusals, who sees a run."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.utils import timezone

from arcade.engine import CUBE2, CUBE3, Record, Status, replay, slide
from arcade.models import Run, Step
from arcade.writes import HELD
from players.models import Player
from tests.arcade.arcadekit import device, move, play_moves, play_until_moved, post, run_placed, start

pytestmark = pytest.mark.django_db

RUN_FIELDS = {"id", "mode", "shape", "board", "score", "best", "peak", "top_tile", "moves", "steps", "status",
              "can_undo", "reached_target", "four_rate", "spawns", "target", "move_cap", "bot", "player", "started_at",
              "closed_at", "ranked_score"}
STEP_FIELDS = {"moved", "board", "spawned", "gained", "score", "best", "peak", "top_tile", "moves", "steps", "status",
               "can_undo"}


def test_a_device_without_a_player_starts_a_run_as_a_guest():
    client = Client()
    run = start(client, "cube3")
    assert set(run) == RUN_FIELDS
    assert run["shape"] == [3, 3, 3] and len(run["board"]) == 27 and run["four_rate"] == 0.1 and run["target"] == 2048
    assert sorted(v for v in run["board"] if v) in ([2, 2], [2, 4], [4, 4])
    assert (run["score"], run["moves"], run["steps"], run["status"], run["can_undo"]) == (0, 0, 0, "playing", False)
    assert run["player"]["name"] == f"Guest {run['player']['id'][:4].upper()}" and run["bot"] is False
    assert client.get("/api/session").json()["player"]["id"] == run["player"]["id"]


@pytest.mark.parametrize(("mode", "shape", "rate"), [("classic", [4, 4], 0.1), ("cube2", [2, 2, 2], 0.05),
                                                     ("cube3-hard", [3, 3, 3], 0.1)])
def test_every_mode_starts_with_its_shape_and_rate(mode, shape, rate):
    client, _ = device()
    run = start(client, mode)
    assert (run["mode"], run["shape"], run["four_rate"]) == (mode, shape, rate)
    assert run["spawns"] == (2 if mode == "cube3-hard" else 1)


def test_a_move_slides_as_the_engine_does_and_the_server_deals_the_spawn():
    client, _ = device()
    run = start(client, "cube3")
    before = run["board"]
    answer = play_until_moved(client, run, random.Random(3))
    assert set(answer) == STEP_FIELDS
    assert answer["steps"] == 1 and answer["moves"] == 1 and answer["can_undo"] is True
    (spawn,) = answer["spawned"]
    assert spawn["value"] in (2, 4)
    stored = Step.objects.get(run_id=run["id"], n=0)
    slid = slide(tuple(before), shape=CUBE3.shape, direction=CUBE3.shape.direction(stored.dir))
    assert slid.board[spawn["cell"]] == 0
    expected = list(slid.board)
    expected[spawn["cell"]] = spawn["value"]
    assert answer["board"] == expected and answer["gained"] == slid.gained


def test_a_move_that_moves_nothing_changes_nothing():
    client, player_id = device()
    run = run_placed(player=Player.objects.get(pk=player_id), mode=CUBE2, board=[2, 0, 0, 0, 0, 0, 0, 0],
                     now=timezone.now())
    status, answer = move(client, str(run.pk), "left", 0)
    assert status == 200
    assert (answer["moved"], answer["spawned"], answer["steps"], answer["moves"]) == (False, [], 0, 0)
    assert Step.objects.filter(run_id=run.pk).count() == 0


def test_a_retry_with_the_same_n_answers_the_same_and_moves_once():
    client, _ = device()
    run = start(client, "classic")
    first = play_until_moved(client, run, random.Random(5))
    n = first["steps"] - 1
    direction = Step.objects.get(run_id=run["id"], n=n).dir
    for held in (True, False):  # from this process's copy, then from the row
        if not held:
            HELD.clear()
        status, again = move(client, run["id"], direction, n)
        assert (status, again) == (200, first)
    assert Step.objects.filter(run_id=run["id"]).count() == 1


def test_a_stale_n_is_409_with_the_runs_state():
    client, _ = device()
    run = start(client, "classic")
    answer = play_until_moved(client, run, random.Random(7))
    n = answer["steps"] - 1
    other = next(d for d in ("left", "right", "up", "down") if d != Step.objects.get(run_id=run["id"], n=n).dir)
    for sent in (n, answer["steps"] + 1):
        status, body = move(client, run["id"], other, sent)
        assert (status, body["code"]) == (409, "stale")
        assert body["run"]["steps"] == answer["steps"] and body["run"]["board"] == answer["board"]


@pytest.mark.parametrize(("data", "code"), [
    ({"dir": "left"}, "bad_request"), ({"dir": "left", "n": "0"}, "bad_request"),
    ({"dir": "left", "n": -1}, "bad_request"), ({"dir": "left", "n": True}, "bad_request"),
    ({"dir": "forward", "n": 0}, "bad_dir"), ({"dir": "north", "n": 0}, "bad_dir"), ({"n": 0}, "bad_dir")])
def test_a_bad_move_is_400_with_its_code(data, code):
    client, _ = device()
    run = start(client, "classic")
    status, body = post(client, f"/api/arcade/runs/{run['id']}/move", data)
    assert (status, body["code"]) == (400, code)


def test_a_bad_mode_is_400():
    client, _ = device()
    for mode in ("cube4", None, 3):
        status, body = post(client, "/api/arcade/runs", {"mode": mode})
        assert (status, body["code"]) == (400, "bad_mode")


def test_undo_on_the_cubes_once_and_never_on_classic():
    client, _ = device()
    classic = start(client, "classic")
    status, body = post(client, f"/api/arcade/runs/{classic['id']}/undo", {"n": 0})
    assert (status, body["code"]) == (400, "no_undo")
    run = start(client, "cube2")
    answer = play_until_moved(client, run, random.Random(2))
    status, undone = post(client, f"/api/arcade/runs/{run['id']}/undo", {"n": answer["steps"]})
    assert status == 200 and undone["board"] == run["board"] and (undone["moves"], undone["steps"]) == (0, 2)
    assert undone["can_undo"] is False and undone["moved"] is False
    status, body = post(client, f"/api/arcade/runs/{run['id']}/undo", {"n": 2})
    assert (status, body["code"]) == (409, "undo_spent")
    status, body = post(client, f"/api/arcade/runs/{run['id']}/undo", {"n": 1})  # the undo sent again
    assert (status, body) == (200, undone)


def test_another_players_run_in_progress_is_404_and_public_once_closed():
    ann, _ = device("Ann")
    bob, _ = device("Bob")
    run = start(ann, "cube2")
    answer = play_moves(ann, run, 5)
    assert bob.get(f"/api/arcade/runs/{run['id']}").json()["code"] == "no_run"
    assert bob.get(f"/api/arcade/runs/{run['id']}").status_code == 404
    assert Client().get(f"/api/arcade/runs/{run['id']}").status_code == 404
    status, body = move(bob, run["id"], "left", answer["steps"])
    assert (status, body["code"]) == (404, "no_run")
    assert ann.get("/api/arcade/runs/not-a-uuid").status_code == 404
    mine = ann.get(f"/api/arcade/runs/{run['id']}").json()
    assert mine["steps"] == answer["steps"] and "record" not in mine
    status, ended = post(ann, f"/api/arcade/runs/{run['id']}/end", {"n": answer["steps"]})
    assert status == 200 and ended["status"] == "ended"
    public = bob.get(f"/api/arcade/runs/{run['id']}").json()
    assert public["closed_at"] is not None and public["ranked_score"] == ended["peak"]
    record = Record.from_json(public["record"])
    assert len(record.steps) == public["steps"] and record.steps[-1].op == "end"  # type: ignore[union-attr]
    assert replay(record).peak_score == public["ranked_score"]
    status, body = move(ann, run["id"], "left", public["steps"])
    assert (status, body["code"]) == (409, "run_ended")


def test_starting_again_closes_the_open_run_of_the_mode_and_scores_it():
    client, _ = device()
    first = start(client, "cube3")
    played = play_moves(client, first, 8)
    found = client.get("/api/arcade/runs?mode=cube3&status=playing").json()
    assert [run["id"] for run in found] == [first["id"]] and found[0]["steps"] == played["steps"]
    other_mode = start(client, "classic")
    second = start(client, "cube3")
    assert second["best"] == played["peak"]
    closed = Run.objects.get(pk=first["id"])
    assert closed.closed_at is not None and closed.status == "ended" and closed.ranked_score == played["peak"]
    assert Run.objects.get(pk=other_mode["id"]).closed_at is None
    assert {run["id"] for run in client.get("/api/arcade/runs").json()} == {other_mode["id"], second["id"]}


def test_continue_after_a_win_and_not_before():
    client, player_id = device()
    run = run_placed(player=Player.objects.get(pk=player_id), mode=CUBE2, board=[128, 128, 0, 0, 0, 0, 0, 0],
                     now=timezone.now())
    status, body = post(client, f"/api/arcade/runs/{run.pk}/continue", {"n": 0})
    assert (status, body["code"]) == (409, "not_won")
    status, won = move(client, str(run.pk), "left", 0)
    assert won["status"] == Status.WON.value and won["top_tile"] == 256
    status, body = move(client, str(run.pk), "right", 1)
    assert (status, body["code"]) == (409, "not_playing")
    status, going = post(client, f"/api/arcade/runs/{run.pk}/continue", {"n": 1})
    assert status == 200 and going["status"] == "playing" and going["steps"] == 2


def test_a_run_whose_record_does_not_replay_is_closed_but_not_ranked(caplog):
    client, player_id = device()
    run = run_placed(player=Player.objects.get(pk=player_id), mode=CUBE2, board=[4, 4, 0, 0, 0, 0, 0, 0],
                     now=timezone.now())
    status, body = post(client, f"/api/arcade/runs/{run.pk}/end", {})
    assert status == 200 and body["status"] == "ended"
    run.refresh_from_db()
    assert run.closed_at is not None and run.ranked_score is None
    assert "not ranked" in caplog.text
