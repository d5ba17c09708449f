"""An arena's points, streaks, performance and standings: the rules, and their agreement with the games list."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.scoring import (
    ArenaGameResult,
    Entrant,
    Result,
    Tally,
    podium,
    points,
    standings,
    tallies_from_games,
    tally_after,
)


@pytest.mark.parametrize(
    ("result", "on_fire", "berserk", "plies", "expected"),
    [
        (Result.WIN, False, False, 20, 2),
        (Result.DRAW, False, False, 64, 1),
        (Result.LOSS, False, False, 20, 0),
        (Result.WIN, True, False, 20, 4),
        (Result.DRAW, True, False, 64, 2),
        (Result.LOSS, True, True, 20, 0),
        (Result.WIN, False, True, 14, 3),  # berserk: one more for a win of at least 14 plies
        (Result.WIN, False, True, 13, 2),
        (Result.WIN, True, True, 30, 5),
        (Result.DRAW, False, True, 64, 1),  # berserk adds to wins only
        (Result.WIN, True, True, 9, 0),  # under 10 plies: nothing for anyone
        (Result.DRAW, False, False, 9, 0),
        (Result.WIN, False, False, 10, 2),
        (Result.VOID, True, True, 40, 0),
    ],
)
def test_points(result, on_fire, berserk, plies, expected):
    assert points(result=result, on_fire=on_fire, berserk=berserk, plies=plies) == expected


def play(tally, *results, plies=20, rating=1500.0):
    scored = []
    for result in results:
        tally, got = tally_after(tally, result=result, berserk=False, plies=plies, opponent_rating=rating)
        scored.append(got)
    return tally, scored


def test_two_wins_light_the_fire_and_a_game_that_is_not_a_win_puts_it_out():
    tally, scored = play(Tally(), Result.WIN, Result.WIN, Result.WIN, Result.DRAW, Result.WIN, Result.WIN, Result.LOSS)
    assert scored == [2, 2, 4, 2, 2, 2, 0]
    assert (tally.score, tally.games, tally.wins, tally.draws, tally.losses) == (14, 7, 5, 1, 1)
    assert not tally.on_fire


def test_a_short_game_counts_as_played_but_scores_nothing_and_leaves_the_streak():
    tally, _ = play(Tally(), Result.WIN, Result.WIN)
    assert tally.on_fire
    after, scored = play(tally, Result.LOSS, plies=5)
    assert scored == [0] and after.on_fire and after.games == 3 and after.losses == 1
    assert after.performance == tally.performance  # nor the performance


def test_an_abandoned_game_counts_for_nothing():
    tally, _ = play(Tally(), Result.WIN)
    assert play(tally, Result.VOID)[0] == tally


def test_performance_is_the_mean_of_opponent_rating_plus_or_minus_500():
    tally, _ = play(Tally(), Result.WIN, rating=1600)
    tally, _ = play(tally, Result.LOSS, rating=1400)
    tally, _ = play(tally, Result.DRAW, rating=1700)
    assert tally.performance == round((2100 + 900 + 1700) / 3)
    assert Tally().performance is None


def test_standings_by_points_then_performance_then_who_joined_first():
    a = Entrant("a", Tally(score=6, perf_sum=1500, perf_games=1, games=1), order=3)
    b = Entrant("b", Tally(score=6, perf_sum=1800, perf_games=1, games=1), order=2)
    c = Entrant("c", Tally(score=8, perf_sum=1000, perf_games=1, games=1), order=4)
    d = Entrant("d", Tally(score=6, perf_sum=1800, perf_games=1, games=1), order=1)
    e = Entrant("e", Tally(), order=0)
    ranked = standings([a, b, c, d, e])
    assert [x.player_id for x in ranked] == ["c", "d", "b", "a", "e"]
    assert [x.player_id for x in podium(ranked)] == ["c", "d", "b"]
    assert podium([e]) == []  # nobody who never played stands on the podium


# --- property: the standings' points equal the points recomputed from the games list -----------------------
PLAYERS = [f"p{i}" for i in range(6)]


@st.composite
def game_lists(draw):
    games = []
    for _ in range(draw(st.integers(0, 40))):
        red, yellow = draw(st.lists(st.sampled_from(PLAYERS), min_size=2, max_size=2, unique=True))
        games.append(ArenaGameResult(
            red=red, yellow=yellow, winner=draw(st.sampled_from(["red", "yellow", None])),
            plies=draw(st.integers(1, 64)), abandoned=draw(st.booleans()) and draw(st.booleans()),
            red_berserk=draw(st.booleans()), yellow_berserk=draw(st.booleans()),
            red_rating=draw(st.floats(800, 2400)), yellow_rating=draw(st.floats(800, 2400)),
        ))
    return games


@given(game_lists())
@settings(deadline=None)  # a property, not a speed: a busy shared machine must not fail it
def test_running_totals_equal_the_totals_recomputed_from_the_games(games):
    # The store updates each player's tally as each game ends (as arena_game_score does) ...
    running: dict[str, Tally] = {}
    scored = []
    for game in games:
        pair = []
        for colour, player, opponent, berserk in (("red", game.red, game.yellow_rating, game.red_berserk),
                                                  ("yellow", game.yellow, game.red_rating, game.yellow_berserk)):
            running[player], got = tally_after(running.get(player, Tally()), result=game.result_of(colour),
                                               berserk=berserk, plies=game.plies, opponent_rating=opponent)
            pair.append(got)
        scored.append(tuple(pair))
    # ... and the games list, each game with its points, recomputes the same standings.
    recomputed, points_per_game = tallies_from_games(games)
    assert points_per_game == scored
    for player in PLAYERS:
        mine = running.get(player, Tally())
        assert mine == recomputed.get(player, Tally())
        from_list = sum(p[0] for g, p in zip(games, scored, strict=True) if g.red == player) + sum(
            p[1] for g, p in zip(games, scored, strict=True) if g.yellow == player)
        assert mine.score == from_list
        assert mine.games == mine.wins + mine.draws + mine.losses
    for game, (red_points, yellow_points) in zip(games, scored, strict=True):
        if game.plies < 10 or game.abandoned:
            assert red_points == yellow_points == 0
        assert max(red_points, yellow_points) <= 5
