"""Applying results: who is rated, by how much, once, and how idle time grows the RD."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from games.endings import game_result, game_scores
from games.models import GameStatus
from games.postgame import post_games_run
from lobby.models import Seat
from lobby.play.moves import game_resign
from ratings import glicko2
from ratings.models import PlayerRating, RatingChange
from ratings.services import established_until, rating_apply_result
from tests.ratings.ratingkit import RED_WINS, YELLOW_WINS, at, make_table, play_game
from tests.records import DRAWN_RECORD

pytestmark = pytest.mark.django_db


def row(player) -> PlayerRating:
    return PlayerRating.objects.get(player=player)


def change(game, player) -> RatingChange:
    return RatingChange.objects.get(game=game, player=player)


def test_a_ranked_win_moves_both_ratings_exactly_as_glicko2():
    table = make_table()
    game = play_game(table, RED_WINS, now=at())
    assert game.status == GameStatus.WON and game.ranked
    expected_ann, expected_bob = glicko2.rate_game(glicko2.Rating(), glicko2.Rating(), 1.0)
    ann, bob = change(game, table.ann), change(game, table.bob)
    assert (ann.rating_before, ann.rd_before, ann.volatility_before) == (1500.0, 350.0, 0.06)
    assert (ann.rating_after, ann.rd_after, ann.volatility_after) == (
        expected_ann.rating, expected_ann.rd, expected_ann.volatility,
    )
    assert (bob.rating_after, bob.rd_after, bob.volatility_after) == (
        expected_bob.rating, expected_bob.rd, expected_bob.volatility,
    )
    assert ann.change == pytest.approx(ann.rating_after - 1500.0) and ann.change > 0
    assert (ann.score, bob.score) == (1.0, 0.0)
    assert (ann.colour, bob.colour, ann.opponent_id, bob.opponent_id) == ("red", "yellow", table.bob.pk, table.ann.pk)
    assert ann.rated_at == game.finished_at
    stored = row(table.ann)
    assert (stored.rating, stored.rd, stored.volatility) == (ann.rating_after, ann.rd_after, ann.volatility_after)
    assert (stored.games, stored.wins, stored.draws, stored.losses) == (1, 1, 0, 0)
    assert (row(table.bob).games, row(table.bob).losses) == (1, 1)
    assert stored.last_rated_at == game.finished_at


def test_a_draw_scores_half_for_both():
    table = make_table()
    game = play_game(table, DRAWN_RECORD, now=at())
    assert game.status == GameStatus.DRAWN
    ann, bob = change(game, table.ann), change(game, table.bob)
    assert ann.score == bob.score == 0.5
    # Equal ratings, a draw: nobody gains, both grow surer.
    assert ann.change == pytest.approx(0.0, abs=1e-9) and bob.change == pytest.approx(0.0, abs=1e-9)
    assert ann.rd_after < 350.0
    assert row(table.ann).draws == row(table.bob).draws == 1


def test_resignation_is_a_loss():
    table = make_table()
    game = table.start(now=at())
    game = table.play(game, "a1 b1", now=at())
    game_resign(code=table.code, player=table.ann, now=at(60))
    post_games_run()
    game.refresh_from_db()
    assert game.status == GameStatus.RESIGNED
    assert (change(game, table.ann).score, change(game, table.bob).score) == (0.0, 1.0)
    assert (row(table.ann).losses, row(table.bob).wins) == (1, 1)


def test_the_second_game_rates_from_the_first_games_results():
    table = make_table()
    first = play_game(table, RED_WINS, now=at())
    second = play_game(table, YELLOW_WINS, now=at(600))  # alternate first: Bob is red, Ann yellow wins
    assert second.red_seat == 2 and second.winner_seat == 1
    after_first_ann = glicko2.Rating(change(first, table.ann).rating_after, change(first, table.ann).rd_after,
                                     change(first, table.ann).volatility_after)
    after_first_bob = glicko2.Rating(change(first, table.bob).rating_after, change(first, table.bob).rd_after,
                                     change(first, table.bob).volatility_after)
    idle = (second.finished_at - first.finished_at).total_seconds() / 86400
    bob_new, ann_new = glicko2.rate_game_at(after_first_bob, idle, after_first_ann, idle, 0.0)
    assert change(second, table.ann).rating_after == pytest.approx(ann_new.rating, abs=1e-9)
    assert change(second, table.bob).rating_after == pytest.approx(bob_new.rating, abs=1e-9)
    assert (row(table.ann).games, row(table.ann).wins, row(table.bob).losses) == (2, 2, 2)


def test_applying_twice_changes_nothing_the_second_time():
    table = make_table()
    game = play_game(table, RED_WINS, now=at())
    before = list(PlayerRating.objects.order_by("player_id").values())
    result = game_result(game)
    assert result is not None
    assert rating_apply_result(result=result, now=at(100)) is None
    assert RatingChange.objects.filter(game=game).count() == 2
    assert list(PlayerRating.objects.order_by("player_id").values()) == before


def test_the_unique_constraint_refuses_a_second_change_for_the_same_game_and_player():
    table = make_table()
    game = play_game(table, RED_WINS, now=at())
    first = change(game, table.ann)
    first.pk = None
    with pytest.raises(IntegrityError), transaction.atomic():
        first.save()


def test_games_with_a_cpu_seat_are_never_rated():
    table = make_table(solo=True)
    game = play_game(table, RED_WINS, now=at())
    assert game.status == GameStatus.WON and game.yellow_cpu and not game.ranked
    assert not RatingChange.objects.exists() and not PlayerRating.objects.exists()


def test_games_in_an_unranked_room_are_not_rated():
    table = make_table(ranked=False)
    game = play_game(table, RED_WINS, now=at())
    assert game.status == GameStatus.WON and not game.ranked
    assert not RatingChange.objects.exists()


def test_a_cpu_standing_in_for_an_absent_player_still_counts():
    table = make_table()
    game = table.start(now=at())
    Seat.objects.filter(room__code=table.code, number=2).update(away=True)
    game = table.play(game, RED_WINS, now=at())
    assert game.ranked
    assert RatingChange.objects.filter(game=game).count() == 2


def test_a_game_still_playing_is_not_rated():
    table = make_table()
    game = table.start(now=at())
    assert game_scores(game) is None
    assert game_result(game) is None


def test_idle_days_grow_the_rd_before_the_next_game_is_rated():
    table = make_table()
    first = play_game(table, RED_WINS, now=at())
    ann_after = change(first, table.ann)
    # Make Ann an established player at RD 60 on the day of the first game, then idle for 200 days.
    PlayerRating.objects.filter(player=table.ann).update(rd=60.0)
    second = play_game(table, YELLOW_WINS, now=at(days=200))
    ann_second = change(second, table.ann)
    days = (second.finished_at - first.finished_at).total_seconds() / 86400
    grown = glicko2.decay_rd(glicko2.Rating(ann_after.rating_after, 60.0, ann_after.volatility_after), days=days)
    assert ann_second.rd_before == pytest.approx(grown.rd, abs=1e-9)
    assert ann_second.rd_before == pytest.approx((60.0**2 + glicko2.RD_GROWTH_PER_DAY_C**2 * days) ** 0.5)
    assert 60.0 < ann_second.rd_before < glicko2.PROVISIONAL_RD


def test_a_year_idle_turns_rd_60_provisional_again():
    rating = glicko2.Rating(1800.0, 60.0)
    until = established_until(rating, rated_at=at())
    assert until is not None
    assert (until - at()).total_seconds() / 86400 == pytest.approx(365.0)
    assert established_until(glicko2.Rating(1800.0, 110.0), rated_at=at()) is None
