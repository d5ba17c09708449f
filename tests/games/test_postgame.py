"""games.postgame: a finished game's post-game work (rating, analysis's queue, explorer, GAME_FINISHED) done
after the end committed, exactly once: a try that dies leaves nothing and the work to the next one, two
processes at once do it once, a row another process holds is skipped, and a loop starting does what a dead
process left."""

from __future__ import annotations

import asyncio
import threading
from datetime import timedelta

import pytest
from django.db import connection, transaction

from games import endings
from games.models import Game, GameAnalysis
from games.postgame import RETRY, PostGameLoop, post_games_next_due, post_games_round, post_games_run
from live import runtime
from live.offload import offload
from lobby.play.moves import game_resign
from ratings.models import PlayerRating, RatingChange
from study.models import ExplorerLearned
from tests.racekit import race
from tests.ratings.ratingkit import at, make_table

END = at(60)


def ended_ranked_game() -> Game:
    """Ann and Bob's ranked game, two moves played, then Ann resigns at END: the end committed, its
    post-game work pending."""
    table = make_table()
    game = table.play(table.start(now=at()), "a1 b1", now=at())
    game_resign(code=table.code, player=table.ann, now=END)
    game.refresh_from_db()
    assert (game.status, game.post_due) == ("resigned", END)
    return game


def done_once(game: Game) -> None:
    """The game's post-game work is done, each part once: two rating changes (one per player, each player's
    row counting one game), one analysis queued, learned once by the explorer, its marker cleared."""
    assert RatingChange.objects.filter(game=game).count() == 2
    assert sorted(PlayerRating.objects.values_list("games", flat=True)) == [1, 1]
    assert GameAnalysis.objects.filter(game=game).count() == 1
    assert ExplorerLearned.objects.filter(game=game).count() == 1
    assert Game.objects.get(pk=game.pk).post_due is None


@pytest.mark.django_db
def test_a_try_that_dies_in_the_middle_leaves_nothing_and_the_next_one_does_it_once(monkeypatch):
    game = ended_ranked_game()
    assert not RatingChange.objects.exists() and not GameAnalysis.objects.exists()
    handlers = type(endings.POST_GAME.handlers)("post-game work")

    def dies(settling: endings.GameSettling) -> None:  # after the rating and the queue, before the marker
        assert RatingChange.objects.filter(game=settling.game).count() == 2
        raise RuntimeError("the process died here")

    handlers.register(dies)
    monkeypatch.setattr(endings.POST_GAME, "handlers", handlers)
    now = END + timedelta(seconds=1)
    assert post_games_run(now=now) == 0
    assert not RatingChange.objects.exists() and not GameAnalysis.objects.exists()  # rolled back whole
    assert Game.objects.get(pk=game.pk).post_due == now + RETRY and post_games_next_due() == now + RETRY
    monkeypatch.undo()
    assert post_games_run(now=now + RETRY - timedelta(seconds=1)) == 0  # not due yet: nothing tried
    assert post_games_run(now=now + RETRY) == 1
    done_once(game)
    assert post_games_run(now=now + 2 * RETRY) == 0 and post_games_run() == 0  # and never again
    assert post_games_next_due() is None
    done_once(game)
    change = RatingChange.objects.filter(game=game).first()
    assert change is not None and change.rated_at == END  # rated as of its end, whenever the work ran


@pytest.mark.postgres  # SQLite has one writer at a time: no race to lose (the sequential case is above)
@pytest.mark.django_db(transaction=True)
def test_two_processes_at_once_do_it_once():
    game = ended_ranked_game()
    outcomes = race(post_games_run, post_games_run, post_games_run)
    assert sorted(outcomes) == [0, 0, 1]
    done_once(game)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_game_another_process_holds_is_skipped_and_done_once_that_process_is_gone():
    """A process doing the work holds the game's row until it commits or dies (kill -9: PostgreSQL rolls its
    transaction back when its connection goes); meanwhile the others skip it, waiting for nothing."""
    game = ended_ranked_game()
    holding, release = threading.Event(), threading.Event()

    def dying_process() -> None:
        try:
            with transaction.atomic():
                Game.objects.select_for_update().get(pk=game.pk)
                holding.set()
                release.wait(30)
                raise RuntimeError("killed")
        except RuntimeError:
            pass
        finally:
            connection.close()

    other = threading.Thread(target=dying_process)
    other.start()
    try:
        assert holding.wait(30)
        assert post_games_run() == 0  # skipped, not waited for
        assert Game.objects.get(pk=game.pk).post_due == END
    finally:
        release.set()
        other.join(30)
    assert post_games_run() == 1
    done_once(game)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("runtime_cleanup")
async def test_a_loop_starting_does_what_a_dead_process_left():
    game = await offload(ended_ranked_game)()  # its process died before the work: nobody woke a loop
    loop = runtime.ensure_running().service(PostGameLoop)
    for _ in range(400):
        if loop.done:
            break
        await asyncio.sleep(0.025)
    assert loop.done == 1
    await offload(done_once)(game)


@pytest.mark.django_db
def test_a_round_reads_the_pending_games_once_a_batch_and_no_more_for_the_next_time(django_assert_num_queries):
    """The loop's round: one read finds a retry pending but not due and says when (no second read for it);
    with nothing pending, one read says so."""
    game = ended_ranked_game()
    later = END + RETRY
    Game.objects.filter(pk=game.pk).update(post_due=later)  # as a failed try leaves it
    with django_assert_num_queries(1):
        assert post_games_round(now=END) == (0, later)
    assert post_games_round(now=later) == (1, None)
    done_once(game)
    with django_assert_num_queries(1):
        assert post_games_round(now=later) == (0, None)
