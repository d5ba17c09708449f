"""The puzzles REST API: next, daily, one puzzle, moves judged and rated once, refusals, the player page."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client

from players.accounts import account_register
from players.models import Player
from puzzles.models import DailyPuzzle, Puzzle, PuzzleAttempt, PuzzleRating, PuzzleSeen
from puzzles.selectors import puzzle_next
from puzzles.services import puzzle_daily
from tests.puzzles.puzzlekit import losing_move, move, player_client, pool_puzzle, solver_line

pytestmark = pytest.mark.django_db

PUZZLE_FIELDS = {"id", "record", "to_move", "plies", "rating", "themes", "attempt"}


def test_the_pool_is_loaded_by_the_migration():
    assert Puzzle.objects.count() >= 300
    assert set(Puzzle.objects.values_list("plies", flat=True).distinct()) == {3, 5, 7, 9}


def test_next_gives_a_puzzle_without_its_solution_and_filters_by_theme():
    client, _ = player_client()
    answer = client.get("/api/puzzles/next?theme=win_in_5")
    assert answer.status_code == 200
    body = answer.json()
    assert set(body) == PUZZLE_FIELDS
    assert body["plies"] == 5 and body["themes"] == ["win_in_5"] and body["attempt"] is None
    assert body["to_move"] == ("yellow" if len(body["record"].split()) % 2 else "red")
    assert client.get(f"/api/puzzles/{body['id']}").json() == body
    refused = client.get("/api/puzzles/next?theme=win_in_4")
    assert refused.status_code == 400 and refused.json()["code"] == "bad_request"


def test_an_unknown_puzzle_is_not_found():
    client = Client()
    assert client.get("/api/puzzles/nosuch").json() == {"code": "not_found", "message": "There is no such puzzle."}
    status, body = move(client, "nosuch", ["a1"])
    assert (status, body["code"]) == (404, "not_found")


def test_solving_with_the_engines_line_rates_a_win_once():
    client, player_id = player_client()
    puzzle = pool_puzzle(5)
    moves = solver_line(puzzle)
    status, body = move(client, puzzle.id, moves[:1])
    assert status == 200 and body["result"] == "continue" and set(body) == {"result", "reply"}
    status, body = move(client, puzzle.id, moves[:2])
    assert body["result"] == "continue"
    status, body = move(client, puzzle.id, moves)
    assert body["result"] == "solved" and body["rating_change"] > 0
    assert len(body["line"]) == 4 and any(cell["peg"] == moves[-1] for cell in body["line"])
    assert body["rating"]["rating"] > 1500 and body["puzzle_rating"] < 1500
    rating_after = body["rating"]["rating"]
    # Replayed: judged again, rated no more.
    status, again = move(client, puzzle.id, moves)
    assert again["result"] == "solved" and again["rating_change"] is None
    assert again["rating"]["rating"] == rating_after
    row = PuzzleRating.objects.get(player_id=player_id)
    assert (row.solved, row.failed) == (1, 0)
    assert PuzzleAttempt.objects.filter(player_id=player_id).count() == 1
    page = client.get(f"/api/players/{player_id}").json()
    assert page["puzzles"]["solved"] == 1 and page["puzzles"]["failed"] == 0
    assert page["puzzles"]["rating"]["rating"] == round(rating_after, 2)
    assert client.get(f"/api/puzzles/{puzzle.id}").json()["attempt"] == "solved"


def test_a_wrong_move_fails_shows_the_refutation_and_a_winning_line_and_is_rated_once():
    client, player_id = player_client()
    puzzle = pool_puzzle(3)
    wrong = losing_move(puzzle)
    status, body = move(client, puzzle.id, [wrong])
    assert status == 200 and body["result"] == "failed"
    assert body["refutation"] and len(body["solution"]) == 3 and body["rating_change"] < 0
    # After failing, the right moves are judged (solved) but change nothing.
    status, again = move(client, puzzle.id, body["solution"][::2])
    assert again["result"] == "solved" and again["rating_change"] is None
    row = PuzzleRating.objects.get(player_id=player_id)
    assert (row.solved, row.failed) == (0, 1)


def test_a_device_without_a_player_is_judged_but_not_rated():
    puzzle = pool_puzzle(3)
    status, body = move(Client(), puzzle.id, solver_line(puzzle))
    assert body["result"] == "solved" and body["rating_change"] is None and body["rating"] is None
    assert PuzzleAttempt.objects.count() == 0


def test_a_solution_shown_to_a_device_without_a_player_is_never_rated_for_the_player_it_becomes():
    seen, other = pool_puzzle(3, 0), pool_puzzle(3, 1)
    device = Client()
    status, body = move(device, seen.id, [losing_move(seen)])  # failed, unrated: the solution is shown
    assert body["result"] == "failed" and body["solution"] and body["rating_change"] is None
    answer = device.post("/api/session", {"name": "Farmer"}, content_type="application/json")
    guest_id = answer.json()["player"]["id"]
    status, body = move(device, seen.id, solver_line(seen))
    assert body["result"] == "solved" and body["rating_change"] is None  # on this device, as this player
    assert PuzzleSeen.objects.filter(player_id=guest_id, puzzle=seen).exists()
    # A puzzle not seen is rated as ever.
    assert move(device, other.id, solver_line(other))[1]["rating_change"] > 0
    assert not PuzzleAttempt.objects.filter(player_id=guest_id, puzzle=seen).exists()


def test_an_account_logged_into_from_a_device_has_seen_what_the_device_and_its_guest_saw():
    before_guest, as_guest = pool_puzzle(5, 0), pool_puzzle(5, 1)
    account_register(player=None, username="farmer", password="four-in-a-row-3d!", now=datetime.now(UTC))
    device = Client()
    move(device, before_guest.id, [losing_move(before_guest)])  # no player yet
    device.post("/api/session", {"name": "Guest"}, content_type="application/json")
    move(device, as_guest.id, [losing_move(as_guest)])  # rated for the guest
    login = device.post("/api/accounts/login", {"username": "farmer", "password": "four-in-a-row-3d!"},
                        content_type="application/json")
    assert login.status_code == 200, login.content
    account_id = login.json()["player"]["id"]
    assert set(PuzzleSeen.objects.filter(player_id=account_id).values_list("puzzle_id", flat=True)) == {
        before_guest.id, as_guest.id}
    # Another device signed into the account: neither is rated, nor offered as the next puzzle.
    other = Client()
    other.post("/api/accounts/login", {"username": "farmer", "password": "four-in-a-row-3d!"},
               content_type="application/json")
    for puzzle in (before_guest, as_guest):
        assert move(other, puzzle.id, solver_line(puzzle))[1]["rating_change"] is None
    assert not PuzzleAttempt.objects.filter(player_id=account_id).exists()
    assert puzzle_next(player=Player.objects.get(pk=account_id), plies=5, now=datetime.now(UTC),
                       rng=random.Random(1)).pk not in {before_guest.id, as_guest.id}


@pytest.mark.parametrize(
    ("moves", "code"),
    [
        ("c3", "bad_request"),
        ([], "bad_request"),
        ([1], "bad_request"),
        (["z9"], "bad_peg"),
        (["a1", "a1", "a1", "a1", "a1", "a1"], "bad_request"),  # more moves than a win in 9 has
    ],
)
def test_bad_moves_are_refused_with_400(moves, code):
    client, _ = player_client()
    status, body = move(client, pool_puzzle(9).id, moves)
    assert (status, body["code"]) == (400, code) and body["message"]


def test_a_full_peg_and_moves_past_the_end_are_refused():
    client, _ = player_client()
    puzzle = next(p for p in Puzzle.objects.filter(plies=3).order_by("id")
                  if any(p.record.split().count(peg) == 4 for peg in p.record.split()))
    full = next(peg for peg in puzzle.record.split() if puzzle.record.split().count(peg) == 4)
    status, body = move(client, puzzle.id, [full])
    assert (status, body["code"]) == (400, "peg_full")
    moves = solver_line(puzzle)
    status, body = move(client, puzzle.id, [*moves, moves[0]])
    assert (status, body["code"]) == (400, "bad_request")
    for raw in (b"not json", b'["moves"]', b'{"moves": {"a": 1}}'):
        answer = client.post(f"/api/puzzles/{puzzle.id}/move", raw, content_type="application/json")
        assert answer.status_code == 400 and answer.json()["code"] == "bad_request"
    assert PuzzleAttempt.objects.count() == 0


def test_the_next_puzzle_is_unseen_and_near_the_players_rating():
    client, player_id = player_client()
    PuzzleRating.objects.create(player_id=player_id, rating=2100.0, rd=60.0)
    seen = pool_puzzle(9)
    PuzzleAttempt.objects.create(player_id=player_id, puzzle=seen, solved=True, moves="a1", rating_before=0,
                                 rating_after=0, puzzle_rating_before=0, puzzle_rating_after=0,
                                 at=datetime(2026, 1, 1, tzinfo=UTC))
    Puzzle.objects.exclude(pk=seen.pk).filter(plies=9).update(rating=1000.0)
    Puzzle.objects.filter(pk=pool_puzzle(5, 3).pk).update(rating=2150.0)
    from players.models import Player

    player = Player.objects.get(pk=player_id)
    now = datetime(2026, 1, 2, tzinfo=UTC)
    picks = {puzzle_next(player=player, plies=None, now=now, rng=random.Random(seed)).id for seed in range(20)}
    assert seen.id not in picks
    assert pool_puzzle(5, 3).id in picks
    assert all(abs(Puzzle.objects.get(pk=pk).rating - 2100) <= 100 for pk in picks)


def test_the_daily_puzzle_is_the_same_for_everyone_all_day_and_changes_the_next_day():
    day = datetime(2026, 6, 1, 0, 5, tzinfo=UTC)
    first = puzzle_daily(now=day)
    assert first is not None and first.plies in (3, 5, 7)
    assert puzzle_daily(now=day + timedelta(hours=23)) == first
    assert Client().get("/api/puzzles/daily").json()["id"] == player_client()[0].get("/api/puzzles/daily").json()["id"]
    assert puzzle_daily(now=day + timedelta(days=1)) != first
    assert DailyPuzzle.objects.count() == 3  # two test days and today


def test_the_schema_documents_the_puzzle_endpoints():
    schema = Client().get("/api/schema/?format=json").json()
    for path in ("/api/puzzles", "/api/puzzles/next", "/api/puzzles/daily", "/api/puzzles/{puzzle_id}",
                 "/api/puzzles/{puzzle_id}/move"):
        assert path in schema["paths"]


def test_moves_are_limited_per_client_address():
    from puzzles.limits import MOVES_PER_MINUTE_PER_ADDRESS

    client = Client()
    puzzle = pool_puzzle(3)
    for _ in range(MOVES_PER_MINUTE_PER_ADDRESS):
        assert move(client, puzzle.id, ["z9"])[0] == 400  # refused moves count too: each is a request
    answer = client.post(f"/api/puzzles/{puzzle.id}/move", {"moves": ["a1"]}, content_type="application/json")
    assert answer.status_code == 429 and answer.json()["code"] == "rate_limited" and answer["Retry-After"]
