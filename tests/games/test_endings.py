"""games.endings, called directly: a resignation, a loss on time and an aborted game, an abandoned one,
the scores and the result of every ending, which games count, and GAME_FINISHED once the post-game work
(games.postgame) committed."""

from __future__ import annotations

import pytest

from games import endings
from games.models import EndReason, Game, GameAnalysis, GameStatus
from games.postgame import post_games_run
from ratings.models import RatingChange
from tests.games.gamekit import at, begun, fresh, move


@pytest.mark.django_db
@pytest.mark.parametrize("seat", [1, 2])
def test_a_resignation_is_won_by_the_other_seat_and_rated(seat):
    game = begun(ranked=True)
    endings.game_resign_write(game, seat=seat, now=at(5))
    stored = fresh(game)
    assert (stored.status, stored.reason, stored.winner_seat) == (GameStatus.RESIGNED, EndReason.RESIGNATION, 3 - seat)
    assert stored.finished_at == at(5) and stored.deadline is None and stored.due_at is None
    assert stored.post_due == at(5) and not RatingChange.objects.exists()  # the rest is the post-game work's
    assert post_games_run() == 1 and fresh(game).post_due is None
    scores = {change.player_id: change.score for change in RatingChange.objects.filter(game=game)}
    loser = game.red_player_id if seat == 1 else game.yellow_player_id
    assert scores[loser] == 0.0 and sorted(scores.values()) == [0.0, 1.0]
    assert GameAnalysis.objects.filter(game=game).exists()  # queued for its post-game analysis


@pytest.mark.django_db
def test_an_unranked_game_ends_without_a_rating():
    game = begun(ranked=False)
    endings.game_resign_write(game, seat=1, now=at(5))
    assert fresh(game).status == GameStatus.RESIGNED and not RatingChange.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(("pegs", "status", "reason", "winner"), [
    ([], GameStatus.ABANDONED, EndReason.ABORTED, None),  # Red never moved
    (["a1"], GameStatus.ABANDONED, EndReason.ABORTED, None),  # Yellow never moved
    (["a1", "b1"], GameStatus.WON, EndReason.TIMEOUT, 2),  # Red, to move, lets the time pass
    (["a1", "b1", "c1"], GameStatus.WON, EndReason.TIMEOUT, 1),
])
def test_a_correspondence_player_who_lets_the_time_pass_loses_unless_they_never_moved(pegs, status, reason, winner):
    game = begun(ranked=True, days_per_move=1)
    for peg in pegs:
        move(game, peg)
    endings.game_time_out(game, now=at(99))
    post_games_run()
    stored = fresh(game)
    assert (stored.status, stored.reason, stored.winner_seat) == (status, reason, winner)
    assert RatingChange.objects.filter(game=game).count() == (0 if winner is None else 2)


@pytest.mark.django_db
def test_an_abandoned_game_has_no_result_and_a_finished_one_is_left_as_it_is():
    playing, finished = begun(ranked=True), begun(ranked=True)
    endings.game_resign_write(finished, seat=1, now=at(1))
    for game in (playing, finished):
        endings.game_abandon(game, reason=EndReason.IDLE, now=at(2))
    assert (fresh(playing).status, fresh(playing).reason, fresh(playing).winner_seat) == (
        GameStatus.ABANDONED, EndReason.IDLE, None)
    assert (fresh(finished).status, fresh(finished).finished_at) == (GameStatus.RESIGNED, at(1))
    assert endings.game_scores(fresh(playing)) is None and endings.game_result(fresh(playing)) is None


@pytest.mark.django_db
def test_game_scores_of_every_ending():
    game = begun()
    assert endings.game_scores(game) is None  # still being played
    game.status, game.winner_seat = GameStatus.WON, game.red_seat
    assert endings.game_scores(game) == (1.0, 0.0)
    game.status, game.winner_seat = GameStatus.RESIGNED, 3 - game.red_seat
    assert endings.game_scores(game) == (0.0, 1.0)
    game.status, game.winner_seat = GameStatus.DRAWN, None
    assert endings.game_scores(game) == (0.5, 0.5)
    assert Game.objects.filter(pk=game.pk, status=GameStatus.PLAYING).exists()


@pytest.mark.django_db
def test_only_a_ranked_game_between_two_different_people_is_rated():
    game = begun(ranked=True)
    endings.game_resign_write(game, seat=2, now=at(1))
    result = endings.game_result(game)
    assert result is not None and (result.red_player_id, result.red_score) == (game.red_player_id, 1.0)
    game.yellow_player_id = game.red_player_id  # one person on both seats
    assert not endings.game_is_rated(game) and endings.game_result(game) is None
    assert endings.game_is_ranked(ranked=True, red_cpu=False, yellow_cpu=False)
    assert not endings.game_is_ranked(ranked=True, red_cpu=False, yellow_cpu=True)
    assert not endings.game_is_ranked(ranked=False, red_cpu=False, yellow_cpu=False)


@pytest.mark.django_db
def test_the_layers_above_hear_of_a_game_s_end_once_it_committed(django_capture_on_commit_callbacks, monkeypatch):
    heard: list[endings.GameFinished] = []
    handlers = type(endings.GAME_FINISHED.handlers)("game finished")
    handlers.register(heard.append)
    monkeypatch.setattr(endings.GAME_FINISHED, "handlers", handlers)
    game = begun(days_per_move=3)
    with django_capture_on_commit_callbacks(execute=True):
        endings.game_resign_write(game, seat=1, now=at(1))
    assert heard == []  # the end committed; the post-game work tells of it
    with django_capture_on_commit_callbacks(execute=True):
        post_games_run()
        assert heard == []
    assert heard == [endings.GameFinished(
        game_id=str(game.pk), room_id=game.room_id, status="resigned", winner_seat=2, reason="resignation", ply=0,
        red_player_id=str(game.red_player_id), yellow_player_id=str(game.yellow_player_id), red_seat=1,
        days_per_move=3, tournament_id=None)]
