"""Reads of ratings: the seat ratings in the room snapshot, the leaderboard, a player's page."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.models import GameStatus
from games.selectors import player_profile
from lobby.rooms.selectors import room_snapshot
from lobby.rooms.services import room_stand
from players.services import player_create
from ratings import glicko2
from ratings.models import PlayerRating
from ratings.selectors import current_rating, leaderboard, rating_display
from ratings.services import established_until
from tests.ratings.ratingkit import RED_WINS, at, make_table, play_game

pytestmark = pytest.mark.django_db


def rated_player(name: str, rating: float, rd: float, *, games: int = 5, rated_at=None):
    """A player whose last rated game was at ``rated_at`` (default T0) with this rating and RD."""
    player = player_create(name=name, now=at())
    when = rated_at or at()
    PlayerRating.objects.create(
        player=player, rating=rating, rd=rd, games=games, last_rated_at=when,
        established_until=established_until(glicko2.Rating(rating, rd), rated_at=when),
    )
    return player


# --- the room snapshot ---------------------------------------------------------------------------
def test_a_ranked_room_shows_each_persons_rating_and_what_each_result_would_do():
    table = make_table()
    seats = room_snapshot(table.code, now=at())["seats"]
    expected = glicko2.expected_changes(glicko2.Rating(), glicko2.Rating())
    for seat in seats:
        assert seat["rating"] == {
            "rating": 1500.0, "rd": 350.0, "provisional": True, "display": "1500?",
            "if_win": round(expected.win, 2), "if_draw": round(expected.draw, 2), "if_loss": round(expected.loss, 2),
        }
    assert seats[0]["rating"]["if_win"] > 0 > seats[0]["rating"]["if_loss"]


def test_after_a_ranked_game_the_snapshot_shows_the_new_ratings():
    table = make_table()
    game = play_game(table, RED_WINS, now=at())
    red, yellow = table.red_and_yellow(game)
    seats = {s["player"]["id"]: s["rating"] for s in room_snapshot(table.code, now=game.finished_at)["seats"]}
    red_row, yellow_row = PlayerRating.objects.get(player=red), PlayerRating.objects.get(player=yellow)
    assert seats[str(red.id)]["rating"] == round(red_row.rating, 2)
    expected = glicko2.expected_changes(red_row.as_glicko(), yellow_row.as_glicko())
    assert seats[str(red.id)]["if_win"] == round(expected.win, 2)
    assert seats[str(red.id)]["if_win"] < seats[str(yellow.id)]["if_win"]  # the winner is now the favourite


def test_changes_are_null_without_a_person_in_the_other_seat():
    table = make_table(solo=True)
    seats = room_snapshot(table.code, now=at())["seats"]
    assert seats[0]["rating"]["display"] == "1500?"
    assert (seats[0]["rating"]["if_win"], seats[0]["rating"]["if_draw"], seats[0]["rating"]["if_loss"]) == (
        None, None, None,
    )
    assert seats[1]["rating"] is None


def test_no_ratings_in_an_unranked_room_or_during_a_cpu_game():
    unranked = make_table(ranked=False)
    assert [s["rating"] for s in room_snapshot(unranked.code, now=at())["seats"]] == [None, None]
    solo = make_table(solo=True)
    solo.start(now=at())
    assert [s["rating"] for s in room_snapshot(solo.code, now=at())["seats"]] == [None, None]


def test_a_seat_freed_between_games_shows_no_rating():
    table = make_table()
    play_game(table, RED_WINS, now=at())
    room_stand(code=table.code, player=table.bob, now=at(60))
    seats = room_snapshot(table.code, now=at(60))["seats"]
    assert seats[1]["rating"] is None and seats[0]["rating"]["if_win"] is None


# --- ratings now -----------------------------------------------------------------------------------
def test_display_marks_provisional_ratings():
    assert rating_display(glicko2.Rating(1642.4, 109.9)) == "1642"
    assert rating_display(glicko2.Rating(1642.5, 110.0)) == "1642?"
    assert rating_display(glicko2.Rating(1643.6, 200.0)) == "1644?"


def test_the_rating_shown_grows_its_rd_with_idle_time():
    player = rated_player("Ann", 1800.0, 60.0)
    row = PlayerRating.objects.get(player=player)
    assert current_rating(row, now=at()).rd == 60.0
    assert current_rating(row, now=at(days=365)).rd == pytest.approx(110.0)
    assert current_rating(row, now=at(days=10_000)).rd == 350.0
    assert current_rating(None, now=at()) == glicko2.Rating()


# --- the leaderboard -------------------------------------------------------------------------------
def test_leaderboard_best_first_without_provisional_players():
    rated_player("Mid", 1600.0, 80.0)
    rated_player("Top", 1900.0, 70.0)
    rated_player("New", 2100.0, 200.0)  # provisional: left out
    rated_player("Low", 1400.0, 60.0)
    rated_player("Tie", 1600.0, 50.0)  # same rating as Mid, surer: first
    player_create(name="Never rated", now=at())
    board = leaderboard(now=at(days=1), limit=10, offset=0)
    assert board["count"] == 4
    assert [(r["rank"], r["player"]["name"]) for r in board["results"]] == [
        (1, "Top"), (2, "Tie"), (3, "Mid"), (4, "Low"),
    ]
    top = board["results"][0]
    assert set(top) == {"rank", "player", "rating", "rd", "provisional", "display", "games"}
    assert top["provisional"] is False and top["display"] == "1900" and top["games"] == 5
    assert top["rd"] == pytest.approx(glicko2.decay_rd(glicko2.Rating(1900, 70), days=1).rd, abs=0.01)


def test_leaderboard_includes_provisional_players_when_asked():
    rated_player("Top", 1900.0, 70.0)
    rated_player("New", 2100.0, 200.0)
    board = leaderboard(now=at(), limit=10, offset=0, include_provisional=True)
    assert [(r["player"]["name"], r["provisional"], r["display"]) for r in board["results"]] == [
        ("New", True, "2100?"), ("Top", False, "1900"),
    ]


def test_an_idle_player_drops_off_the_leaderboard_when_turning_provisional():
    rated_player("Idle", 1900.0, 60.0)
    assert leaderboard(now=at(days=364), limit=10, offset=0)["count"] == 1
    assert leaderboard(now=at(days=366), limit=10, offset=0)["count"] == 0
    row = leaderboard(now=at(days=366), limit=10, offset=0, include_provisional=True)["results"][0]
    assert row["provisional"] is True and row["display"] == "1900?"


def test_leaderboard_pages_neither_overlap_nor_skip():
    for i in range(7):
        rated_player(f"P{i}", 1500.0 + 10 * i, 60.0)
    pages = [leaderboard(now=at(), limit=3, offset=offset) for offset in (0, 3, 6, 9)]
    names = [r["player"]["name"] for page in pages for r in page["results"]]
    assert names == [f"P{i}" for i in range(6, -1, -1)]
    assert [r["rank"] for page in pages for r in page["results"]] == list(range(1, 8))
    assert [len(p["results"]) for p in pages] == [3, 3, 1, 0]
    assert all(p["count"] == 7 for p in pages)


# --- a player's page -------------------------------------------------------------------------------
def test_player_page_with_record_recent_games_and_history():
    table = make_table()
    first = play_game(table, RED_WINS, now=at())
    second = play_game(table, RED_WINS, now=at(600))  # Bob is red now and wins
    assert first.status == second.status == GameStatus.WON
    page = player_profile(str(table.ann.id), now=at(700))
    assert page["name"] == "Ann" and page["account"] is False
    assert (page["games"], page["wins"], page["draws"], page["losses"]) == (2, 1, 0, 1)
    assert [g["id"] for g in page["recent_games"]] == [str(second.id), str(first.id)]
    latest = page["recent_games"][0]
    assert latest["colour"] == "yellow" and latest["result"] == "loss" and latest["rated"] is True
    assert latest["opponent"] == {"id": str(table.bob.id), "name": "Bob"} and latest["opponent_cpu"] is False
    assert latest["rating_change"] < 0
    assert latest["rating_after"] == pytest.approx(latest["rating_before"] + latest["rating_change"], abs=0.02)
    assert [point["game"] for point in page["history"]] == [str(first.id), str(second.id)]
    assert page["history"][-1]["rating"] == latest["rating_after"]
    assert page["provisional"] is True and page["display"].endswith("?")


def test_player_page_of_a_new_player_and_unknown_ids():
    player = player_create(name="Cat", now=at())
    page = player_profile(str(player.id), now=at())
    assert (page["rating"], page["rd"], page["games"], page["history"], page["recent_games"]) == (
        1500.0, 350.0, 0, [], [],
    )
    assert player_profile("not-a-uuid", now=at()) is None
    assert player_profile("00000000-0000-0000-0000-000000000000", now=at()) is None


def test_unrated_games_are_listed_without_a_rating_change():
    table = make_table(solo=True)
    game = play_game(table, RED_WINS, now=at())
    page = player_profile(str(table.ann.id), now=at() + timedelta(minutes=1))
    assert page["history"] == []
    assert page["recent_games"] == [
        {
            "id": str(game.id), "colour": "red", "opponent": None, "opponent_cpu": True, "status": "won",
            "result": "win", "rated": False, "rating_before": None, "rating_after": None, "rating_change": None,
            "finished_at": page["recent_games"][0]["finished_at"],
        }
    ]
