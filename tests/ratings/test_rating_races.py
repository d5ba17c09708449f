"""Racing game ends on PostgreSQL: two threads end the same game at once; the result is applied exactly once."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.models import Game, GameStatus
from games.postgame import post_games_run
from lobby.play.automatic import game_cpu_move, game_due_job
from lobby.play.moves import game_drop, game_resign
from lobby.rooms.connections import connection_open
from lobby.timers import games_claim_due
from ratings.models import PlayerRating, RatingChange
from tests.racekit import race
from tests.ratings.ratingkit import at, make_table

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROUNDS = 6
SIX_PLIES = "a1 b1 a1 b1 a1 b1"  # red to move; a1 wins


@pytest.fixture(autouse=True)
def _connections_stay_alive(settings):
    settings.PING_TIMEOUT_SECONDS = 10**6


def assert_rated_once(game: Game) -> None:
    """The game ended once; its post-game work (run here as the loop runs it, twice: once does it) rated it once."""
    assert post_games_run() == 1 and post_games_run() == 0
    game.refresh_from_db()
    assert GameStatus(game.status).is_finished
    changes = {c.colour: c for c in RatingChange.objects.filter(game=game)}
    assert set(changes) == {"red", "yellow"}
    red_score = 1.0 if game.winner_seat == game.red_seat else 0.0
    assert (changes["red"].score, changes["yellow"].score) == (red_score, 1.0 - red_score)
    for change in changes.values():
        stored = PlayerRating.objects.get(player_id=change.player_id)
        assert stored.games == 1 and stored.rating == change.rating_after


def test_a_winning_drop_racing_a_resignation_is_rated_once():
    endings = set()
    for _ in range(ROUNDS):
        table = make_table()
        game = table.play(table.start(now=at()), SIX_PLIES, now=at())
        red, _yellow = table.red_and_yellow(game)
        outcomes = race(
            lambda code=table.code, red=red: game_drop(code=code, player=red, peg="a1", ply=6, now=at(10)),
            lambda code=table.code, red=red: game_resign(code=code, player=red, now=at(10)),
        )
        assert sorted(o for o in outcomes if isinstance(o, str)) == ["game_over"], outcomes
        assert_rated_once(game)
        endings.add(game.status)
    assert endings <= {GameStatus.WON, GameStatus.RESIGNED}


def test_a_timeout_racing_a_drop_is_rated_once():
    for _ in range(ROUNDS):
        table = make_table(turn_seconds=30)
        for player in (table.ann, table.bob):
            connection_open(code=table.code, channel_name=f"chan-{player.pk}", player=player, process="p", now=at())
        game = table.play(table.start(now=at()), SIX_PLIES, now=at())
        red, _yellow = table.red_and_yellow(game)
        late = at(60)  # red's turn started at 5 s and ran out at 35 s
        assert games_claim_due(now=late, lease=timedelta(seconds=15)) == [str(game.id)]
        job = game_due_job(game_id=str(game.id), now=late)
        assert job is not None and str(job.reason) == "timeout"
        outcomes = race(
            lambda job=job, late=late: game_cpu_move(job=job, peg="a1", now=late),  # the timeout move wins too
            lambda code=table.code, red=red, late=late: game_drop(code=code, player=red, peg="a1", ply=6, now=late),
        )
        cpu_played, dropped = outcomes
        assert (cpu_played is True) != isinstance(dropped, Game), outcomes
        assert_rated_once(game)
        assert game.status == GameStatus.WON
