"""The run services under the API: the statements a move costs, the dealt spawns' statistics, the replay
of a stored record, and the same move sent twice at once (PostgreSQL)."""

from __future__ import annotations

import contextlib
import random
from collections import Counter

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from arcade import services
from arcade.engine import CUBE2, MODES, Status, empty_cells, replay, slide
from arcade.models import Run, Step
from arcade.selectors import run_shown
from arcade.services import run_start, run_step
from arcade.state import record_of
from arcade.writes import HELD
from players.services import player_create
from tests.arcade.arcadekit import run_placed
from tests.racekit import race

# The chi-square's critical values at p = 0.001: a fair dealer fails one seed in a thousand (the seeds are fixed).
CHI2_CRITICAL = {1: 10.83, 3: 16.27, 7: 24.32, 15: 37.70, 26: 54.05}


@pytest.fixture
def quick(settings):
    settings.ARCADE_MOVES_PER_SECOND_PER_RUN = 1_000_000
    settings.ARCADE_RUNS_PER_HOUR_PER_PLAYER = settings.ARCADE_RUNS_PER_HOUR_PER_ADDRESS = 1_000_000


def _start(player, mode="cube3", rng=None):
    return run_start(player=player, mode_id=mode, bot=False, now=timezone.now(), address=None, rng=rng)


def _moved(player, run_id, steps, rng, mode):
    """A move that moved, from ``steps``: its outcome (None when the run stopped playing)."""
    for direction in rng.sample([d.value for d in MODES[mode].shape.directions], len(MODES[mode].shape.directions)):
        outcome = run_step(run_id=run_id, player=player, op="move", n=steps, direction=direction,
                           now=timezone.now(), rng=rng)
        if outcome.moved:
            return outcome
    return None


@pytest.mark.django_db(transaction=True)
def test_a_move_on_a_held_run_is_one_statement_and_none_when_it_moves_nothing(quick):
    player = player_create(name="Ann", now=timezone.now())
    run = _start(player, "classic", rng=random.Random(4))
    rng = random.Random(9)
    steps = 0
    for _ in range(5):
        with CaptureQueriesContext(connection) as queries:
            outcome = _moved(player, run.run_id, steps, rng, "classic")
        assert outcome is not None
        statements = [q["sql"] for q in queries.captured_queries]
        # The one statement (PostgreSQL), or its UPDATE and INSERT in one transaction (SQLite).
        writes = [sql for sql in statements if sql.startswith(("UPDATE", "INSERT", "WITH"))]
        assert len(writes) == (1 if connection.vendor == "postgresql" else 2), statements
        assert not [sql for sql in statements if sql.startswith("SELECT")], statements
        steps = outcome.run.steps
    assert Step.objects.filter(run_id=run.run_id).count() == Run.objects.get(pk=run.run_id).steps == 5
    # Not held (another process's run, or this one restarted): the row is read under its lock first.
    HELD.clear()
    with CaptureQueriesContext(connection) as queries:
        assert _moved(player, run.run_id, steps, rng, "classic") is not None
    assert any(q["sql"].startswith("SELECT") and "arcade_run" in q["sql"] for q in queries.captured_queries)
    # A move that moves nothing on a held run: no statement at all.
    placed = run_placed(player=player, mode=CUBE2, board=[2, 0, 0, 0, 0, 0, 0, 0], now=timezone.now())
    run_step(run_id=str(placed.pk), player=player, op="move", n=0, direction="left", now=timezone.now())  # holds it
    with CaptureQueriesContext(connection) as queries:
        outcome = run_step(run_id=str(placed.pk), player=player, op="move", n=0, direction="left", now=timezone.now())
    assert outcome.moved is False and queries.captured_queries == []


def chi2_cells(spawns: list[tuple[tuple[int, ...], int]], cells: int) -> float:
    """Pearson's statistic of the cells chosen, each spawn's expectation spread evenly over the cells empty
    when it was dealt (``spawns``: (empty cells, chosen cell))."""
    expected = [0.0] * cells
    observed = Counter(cell for _, cell in spawns)
    for empty, _ in spawns:
        for cell in empty:
            expected[cell] += 1 / len(empty)
    return sum((observed[cell] - e) ** 2 / e for cell, e in enumerate(expected) if e > 0)


def chi2_fours(fours: int, total: int, rate: float) -> float:
    expected = [total * rate, total * (1 - rate)]
    return sum((o - e) ** 2 / e for o, e in zip((fours, total - fours), expected, strict=True))


def test_the_statistics_tell_a_biased_dealer():
    empties = [(tuple(range(27)), 0)] * 200 + [(tuple(range(27)), cell) for cell in range(27)] * 20
    assert chi2_cells(empties, 27) > CHI2_CRITICAL[26] * 10
    assert chi2_fours(300, 2000, 0.1) > CHI2_CRITICAL[1]  # 15% fours where 10% are served


@pytest.mark.django_db
@pytest.mark.parametrize(("mode", "moves"), [("classic", 1500), ("cube2", 1500), ("cube3", 1500),
                                             ("cube3-hard", 1000)])
def test_spawns_are_uniform_among_the_empty_cells_and_fours_at_the_rate_served(quick, mode, moves):
    player = player_create(name="Ann", now=timezone.now())
    rng = random.Random(f"spawns-{mode}")
    spawns: list[tuple[tuple[int, ...], int]] = []
    values: list[int] = []
    run, steps = _start(player, mode, rng=rng), 0
    while len(values) < moves:
        outcome = _moved(player, run.run_id, steps, rng, mode)
        if outcome is None or outcome.run.state.status is not Status.PLAYING:
            run, steps = _start(player, mode, rng=rng), 0
            continue
        board = list(outcome.run.state.board)
        for spawn in outcome.spawned:
            board[spawn.cell] = 0
        for spawn in outcome.spawned:  # on Hard the second among the cells still empty after the first
            spawns.append((tuple(empty_cells(tuple(board))), spawn.cell))
            board[spawn.cell] = spawn.value
            values.append(spawn.value)
        steps = outcome.run.steps
    cells = MODES[mode].shape.cells
    assert chi2_cells(spawns, cells) < CHI2_CRITICAL[cells - 1]
    assert set(values) == {2, 4}
    assert chi2_fours(values.count(4), len(values), run_shown(Run.objects.get(pk=run.run_id),
                                                                record=False).state.mode.four_rate) < CHI2_CRITICAL[1]


@pytest.mark.django_db
def test_the_server_deals_from_the_systems_randomness(quick, monkeypatch):
    dealt = []

    class Recording(random.SystemRandom):
        def randrange(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            dealt.append(args)
            return super().randrange(*args, **kwargs)

    monkeypatch.setattr(services.secrets, "SystemRandom", Recording)
    player = player_create(name="Ann", now=timezone.now())
    run = run_start(player=player, mode_id="cube3", bot=False, now=timezone.now(), address=None)
    assert len(dealt) == 2  # the two opening tiles
    for direction in ("left", "right", "up", "down"):
        outcome = run_step(run_id=run.run_id, player=player, op="move", n=run.steps, direction=direction,
                           now=timezone.now())
        if outcome.moved:
            break
    assert len(dealt) == 3


@pytest.mark.django_db
def test_a_stored_record_replays_to_the_stored_score(quick):
    player = player_create(name="Ann", now=timezone.now())
    rng = random.Random(11)
    for mode in MODES:
        run, steps = _start(player, mode, rng=rng), 0
        for i in range(120):
            if i % 7 == 3 and MODES[mode].undo and steps:
                with contextlib.suppress(services.Refused):  # undo_spent: two in a row
                    steps = run_step(run_id=run.run_id, player=player, op="undo", n=steps, now=timezone.now()).run.steps
                continue
            outcome = _moved(player, run.run_id, steps, rng, mode)
            if outcome is None or outcome.run.state.status is not Status.PLAYING:
                break
            steps = outcome.run.steps
        stored = Run.objects.get(pk=run.run_id)
        replayed = replay(record_of(stored, Step.objects.filter(run_id=run.run_id).order_by("n")))
        assert (replayed.score, replayed.peak_score, list(replayed.board)) == (stored.score, stored.peak, stored.board)
        run_step(run_id=run.run_id, player=player, op="end", n=None, now=timezone.now())
        stored.refresh_from_db()
        assert stored.ranked_score == replayed.peak_score and stored.closed_at is not None


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("held", [True, False])
def test_the_same_move_sent_twice_at_once_moves_once(quick, held):
    player = player_create(name="Ann", now=timezone.now())
    for round_ in range(5):
        run = _start(player, "cube3", rng=random.Random(round_))
        if not held:
            HELD.clear()
        shape = run.state.mode.shape
        direction = next(d for d in shape.directions if slide(run.state.board, shape=shape, direction=d).moved).value
        def send(run_id=run.run_id, direction=direction):  # type: ignore[no-untyped-def]
            return run_step(run_id=run_id, player=player, op="move", n=0, direction=direction, now=timezone.now())

        outcomes = race(send, send)
        assert outcomes[0] == outcomes[1], outcomes
        assert Step.objects.filter(run_id=run.run_id).count() == Run.objects.get(pk=run.run_id).steps
        assert outcomes[0].moved and Run.objects.get(pk=run.run_id).steps == 1
