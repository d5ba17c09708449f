"""The post-game analysis queue: queued once where every game ends, leased to one process, stored,
recomputed for an older engine version; and computed in its own lane, behind live CPU moves."""

from __future__ import annotations

import asyncio
import threading
from datetime import timedelta
from typing import cast

import pytest
from django.utils import timezone

from games import cpu_pool
from games.analyses import (
    ANALYSIS_MAX_ATTEMPTS,
    AnalysisJob,
    analyses_claim,
    analysis_release,
    analysis_request,
    analysis_store,
)
from games.engine.analyse import ANALYSIS_VERSION
from games.models import AnalysisStatus, EndReason, Game, GameAnalysis, GameStatus
from games.postgame import post_games_run
from live import runtime
from live.offload import offload
from lobby.play.moves import game_drop, game_resign, game_start
from lobby.realtime.presence import Presence
from lobby.realtime.ticker import (
    ANALYSIS_LONGEST_WAIT_SECONDS,
    ANALYSIS_POLL_SECONDS,
    BUSY_SPAN_SECONDS,
    ProcessLoad,
    Ticker,
)
from lobby.rooms.connections import connection_open, process_register
from lobby.rooms.services import room_close, room_create
from players.services import player_create
from tests.games.analysiskit import BLUNDER_GAME, T0, at, two_player_game
from tests.records import DRAWN_RECORD

LEASE = timedelta(minutes=3)


def rows() -> list[tuple[str, str, int]]:
    return list(GameAnalysis.objects.values_list("game_id", "status", "version"))


@pytest.mark.django_db
@pytest.mark.parametrize("ending", ["line", "resignation"])
def test_a_finished_game_queues_its_analysis_once(ending):
    code, ann, bob, game = two_player_game(BLUNDER_GAME.rsplit(" ", 1)[0])
    assert rows() == []  # nothing is queued while the game is played
    if ending == "line":
        game_drop(code=code, player=bob, peg="d4", ply=7, now=at(30))
    else:
        game_resign(code=code, player=ann, now=at(30))
    assert rows() == []  # queued by the post-game work, once the end committed
    assert post_games_run() == 1
    game.refresh_from_db()
    expected = (GameStatus.WON, EndReason.LINE) if ending == "line" else (GameStatus.RESIGNED, EndReason.RESIGNATION)
    assert (game.status, game.reason) == expected
    assert rows() == [(game.pk, AnalysisStatus.QUEUED, ANALYSIS_VERSION)]
    # Asking again (the API does) neither duplicates nor requeues it.
    assert analysis_request(game, now=at(40)).status == AnalysisStatus.QUEUED
    assert GameAnalysis.objects.count() == 1


@pytest.mark.django_db
def test_a_full_board_draw_queues_its_analysis():
    code, ann, bob, game = two_player_game(DRAWN_RECORD)
    assert (game.status, game.reason) == (GameStatus.DRAWN, EndReason.FULL_BOARD)
    assert rows() == [(game.pk, AnalysisStatus.QUEUED, ANALYSIS_VERSION)]


@pytest.mark.django_db
def test_an_abandoned_game_is_not_analysed():
    code, ann, bob, game = two_player_game("a1 b2")
    assert room_close(code=code, now=at(10))
    game.refresh_from_db()
    assert game.status == GameStatus.ABANDONED
    assert rows() == []
    assert analysis_request(game, now=at(20)) is None
    assert rows() == []


@pytest.mark.django_db
def test_an_analysis_is_leased_to_one_process_computed_and_stored():
    _, _, _, game = two_player_game(BLUNDER_GAME)
    [job] = analyses_claim(now=at(100), lease=LEASE)
    assert (job.game_id, job.record) == (str(game.pk), BLUNDER_GAME)
    assert GameAnalysis.objects.get().status == AnalysisStatus.RUNNING
    assert analyses_claim(now=at(101), lease=LEASE) == []  # another process finds nothing to do

    result = cpu_pool._analyse(job.record, *cpu_pool.analysis_budget())
    assert analysis_store(game_id=job.game_id, result=result, now=at(102))
    row = GameAnalysis.objects.get()
    assert (row.status, row.version, row.attempts) == (AnalysisStatus.DONE, ANALYSIS_VERSION, 1)
    # The engine's JSON as it is (docs/analysis.md). The missed win's better move is proved within the
    # guaranteed horizon; the blunder's alternative may need more than the quick test budget.
    assert row.result == result and len(row.result["plies"]) == 9
    assert [(m["ply"], m["kind"]) for m in row.result["moments"]] == [(5, "blunder"), (6, "missed_win")]
    assert row.result["moments"][1]["better"] == "d1"
    # Computed once: never claimed again, even long after the lease.
    assert analyses_claim(now=at(10_000), lease=LEASE) == []


@pytest.mark.django_db
def test_a_lease_that_runs_out_lets_another_process_take_over():
    two_player_game(BLUNDER_GAME)
    [first] = analyses_claim(now=at(100), lease=LEASE)
    assert analyses_claim(now=at(100) + LEASE - timedelta(seconds=1), lease=LEASE) == []
    [again] = analyses_claim(now=at(100) + LEASE + timedelta(seconds=1), lease=LEASE)
    assert again == first
    assert GameAnalysis.objects.get().attempts == 2


@pytest.mark.django_db
def test_a_failing_analysis_is_retried_then_given_up():
    two_player_game(BLUNDER_GAME)
    for attempt in range(ANALYSIS_MAX_ATTEMPTS):
        [job] = analyses_claim(now=at(100 + attempt), lease=LEASE)
        analysis_release(game_id=job.game_id, now=at(100 + attempt))
    row = GameAnalysis.objects.get()
    assert (row.status, row.attempts) == (AnalysisStatus.FAILED, ANALYSIS_MAX_ATTEMPTS)
    assert analyses_claim(now=at(200), lease=LEASE) == []


@pytest.mark.django_db
def test_an_analysis_by_an_older_engine_is_recomputed_when_asked():
    _, _, _, game = two_player_game(BLUNDER_GAME)
    GameAnalysis.objects.update(status=AnalysisStatus.DONE, version=ANALYSIS_VERSION - 1, result={"old": True})
    assert analyses_claim(now=at(100), lease=LEASE) == []  # nothing to do until someone asks
    row = analysis_request(game, now=at(101))
    assert (row.status, row.version, row.result) == (AnalysisStatus.QUEUED, ANALYSIS_VERSION, None)
    [job] = analyses_claim(now=at(102), lease=LEASE)
    assert job.game_id == str(game.pk)


@pytest.mark.django_db
def test_a_game_finished_before_analyses_existed_is_queued_when_asked():
    _, _, _, game = two_player_game(BLUNDER_GAME)
    GameAnalysis.objects.all().delete()
    assert analysis_request(game, now=at(100)).status == AnalysisStatus.QUEUED
    assert rows() == [(game.pk, AnalysisStatus.QUEUED, ANALYSIS_VERSION)]


# --- the lane: a running analysis never holds up a live CPU move ------------------------------------------
def _solo_game_against_the_cpu():
    ann = player_create(name="Solo", now=T0)
    room = room_create(host=ann, rules={"cpu_level": 2}, now=T0)
    process_register(process="solo-process", now=T0)
    connection_open(code=room.code, channel_name="chan-solo", player=ann, process="solo-process", now=T0)
    game = game_start(code=room.code, player=ann, now=T0)
    assert game.red_seat == 1 and game.yellow_cpu
    return room.code, ann, game


async def _until(check, *, what: str, timeout: float = 60.0):
    """Polls ``check`` (a sync DB read) until it returns something truthy; generous for a shared machine."""
    for _ in range(int(timeout / 0.05)):
        value = await offload(check)()
        if value:
            return value
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("runtime_cleanup", "background_analyses")
async def test_a_cpu_move_lands_while_an_analysis_occupies_its_lane(monkeypatch):
    # The analysis lane is held busy on an event: the real analysis runs only once the test lets it.
    release = threading.Event()
    entered = threading.Event()
    real = cpu_pool._analyse

    def held(record: str, node_budget: int, time_budget_s: float, cpu_budget_s: float) -> dict[str, object]:
        entered.set()
        release.wait(timeout=120)
        return real(record, node_budget, time_budget_s, cpu_budget_s)

    monkeypatch.setattr(cpu_pool, "_analyse", held)
    try:
        _, _, _, finished = await offload(two_player_game)(BLUNDER_GAME)
        code, ann, live = await offload(_solo_game_against_the_cpu)()
        runtime.ensure_running()

        def analysis_status() -> str:
            return GameAnalysis.objects.get(pk=finished.pk).status

        await _until(lambda: entered.is_set() and analysis_status() == AnalysisStatus.RUNNING,
                     what="the analysis to start")

        # A person's move in a live game against the CPU, then the CPU's answer, all while it runs.
        await offload(game_drop)(code=code, player=ann, peg="b2", ply=0, now=at(1))
        await _until(lambda: Game.objects.get(pk=live.pk).ply >= 2, what="the CPU's move")
        assert await offload(analysis_status)() == AnalysisStatus.RUNNING
        assert not release.is_set()

        release.set()
        await _until(lambda: analysis_status() == AnalysisStatus.DONE, what="the analysis to finish")
        row = await offload(GameAnalysis.objects.get)(pk=finished.pk)
        assert [m["ply"] for m in row.result["moments"]] == [5, 6]
    finally:
        release.set()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("runtime_cleanup", "background_analyses")
async def test_an_analysis_over_its_cpu_budget_is_given_up_at_once(settings, caplog):
    # A budget spent before the second position: the ticker leases the analysis, the lane stops it there, and
    # it is given up (failed, one attempt, never retried).
    settings.ANALYSIS_CPU_BUDGET_S = 1e-9
    caplog.set_level("INFO", logger="lobby.realtime.ticker")
    _, _, _, finished = await offload(two_player_game)(BLUNDER_GAME)
    runtime.ensure_running()

    def analysis() -> GameAnalysis:
        return GameAnalysis.objects.get(pk=finished.pk)

    await _until(lambda: analysis().status == AnalysisStatus.FAILED, what="the analysis to be given up")
    row = await offload(analysis)()
    assert (row.attempts, row.result, row.lease_until) == (1, None, None)
    assert await offload(analyses_claim)(now=row.finished_at + LEASE * 2, lease=LEASE) == []
    assert "given up at its CPU budget" in caplog.text


@pytest.mark.django_db(transaction=True)
async def test_a_process_without_an_analysis_budget_leases_none(settings):
    # A budget of 0 (the session's): the ticker looks, leases nothing and starts no lane; the analysis stays
    # queued, untouched, for a process that computes them.
    settings.ANALYSIS_CPU_BUDGET_S = 0
    settings.ANALYSIS_BUSY_SHARE = 0
    cpu_pool._analyses.end()  # (a lane an earlier test of this process started)
    _, _, _, finished = await offload(two_player_game)(BLUNDER_GAME)
    ticker = Ticker(cast(Presence, None))
    assert await leased_by(ticker) == []
    row = await offload(GameAnalysis.objects.get)(pk=finished.pk)
    assert (row.status, row.attempts, row.lease_until) == (AnalysisStatus.QUEUED, 0, None)
    assert ticker.analysis is None and cpu_pool._analyses.executor is None
    settings.ANALYSIS_CPU_BUDGET_S = 60.0  # the same look with a budget leases it
    ticker.last_analysis_poll = -ANALYSIS_POLL_SECONDS
    assert await leased_by(ticker) == [str(finished.pk)]
    row = await offload(GameAnalysis.objects.get)(pk=finished.pk)
    assert (row.status, row.attempts) == (AnalysisStatus.RUNNING, 1)


async def leased_by(ticker: Ticker) -> list[str]:
    """The games whose analyses one look of ``ticker`` leased (its lane replaced by a note of the job: the
    computation, tested above, would run on in its thread after the test)."""
    leased: list[str] = []

    async def analyse(job: AnalysisJob) -> None:
        leased.append(job.game_id)

    ticker._analyse = analyse  # type: ignore[method-assign]
    await ticker._start_analysis(timezone.now())
    if ticker.analysis is not None:
        await ticker.analysis
    return leased


def clocked_ticker(presence: object = None) -> tuple[Ticker, dict[str, float]]:
    """A ticker whose process load reads the returned clocks (wall and CPU seconds, both from 0)."""
    clocks = {"wall": 0.0, "cpu": 0.0}
    load = ProcessLoad(wall=lambda: clocks["wall"], cpu=lambda: clocks["cpu"])
    return Ticker(cast(Presence, presence), load), clocks


def test_the_process_load_is_its_cpu_share_over_the_last_two_seconds():
    clocks = {"wall": 100.0, "cpu": 7.0}
    load = ProcessLoad(wall=lambda: clocks["wall"], cpu=lambda: clocks["cpu"])
    assert load.share() == 0.0  # nothing measured yet
    clocks.update(wall=101.0, cpu=7.5)
    assert load.share() == 0.5  # a second since the first sample, the only one
    load.sample()
    clocks.update(wall=101.1, cpu=7.6)
    load.sample()  # (a tenth of a second after the last one: not kept)
    clocks.update(wall=104.0, cpu=9.0)
    load.sample()
    clocks.update(wall=105.5, cpu=10.2)
    # From the newest sample at least two seconds old (101 s), not the first (100 s): 2.7 s of CPU in 4.5.
    assert load.share() == pytest.approx(2.7 / 4.5)


@pytest.mark.django_db(transaction=True)
async def test_an_analysis_waits_while_the_process_is_busy_with_live_play(settings):
    settings.ANALYSIS_CPU_BUDGET_S = 60.0
    settings.ANALYSIS_BUSY_SHARE = 0.25
    cpu_pool._analyses.end()  # (a lane an earlier test of this process started)
    _, _, _, finished = await offload(two_player_game)(BLUNDER_GAME)
    ticker, clocks = clocked_ticker()

    async def look(wall: float, cpu: float) -> GameAnalysis:
        clocks.update(wall=wall, cpu=cpu)
        ticker.last_analysis_poll = -ANALYSIS_POLL_SECONDS  # (as a game's end wakes it)
        assert await leased_by(ticker) == []
        ticker.load.sample()  # (as each tick does)
        return await offload(GameAnalysis.objects.get)(pk=finished.pk)

    # Half a core for the last 4 s, then 0.3 of one: it stays queued, nothing leased, no lane started.
    for wall, cpu in ((4.0, 2.0), (14.0, 5.0)):
        row = await look(wall, cpu)
        assert (row.status, row.attempts) == (AnalysisStatus.QUEUED, 0)
    assert cpu_pool._analyses.executor is None
    # A quiet span (0.1 of a core): leased at once.
    clocks.update(wall=24.0, cpu=6.0)
    ticker.last_analysis_poll = -ANALYSIS_POLL_SECONDS
    assert await leased_by(ticker) == [str(finished.pk)]
    row = await offload(GameAnalysis.objects.get)(pk=finished.pk)
    assert (row.status, row.attempts) == (AnalysisStatus.RUNNING, 1)


@pytest.mark.django_db(transaction=True)
async def test_a_process_that_stays_busy_still_starts_one_analysis_every_few_minutes(settings):
    settings.ANALYSIS_CPU_BUDGET_S = 60.0
    settings.ANALYSIS_BUSY_SHARE = 0.25
    _, _, _, first = await offload(two_player_game)(BLUNDER_GAME)
    _, _, _, second = await offload(two_player_game)(BLUNDER_GAME, names=("Cy", "Di"))
    ticker, clocks = clocked_ticker()

    async def look_after(seconds: float) -> list[str]:  # half a core all along
        clocks.update(wall=clocks["wall"] + seconds, cpu=clocks["cpu"] + seconds / 2)
        ticker.load.sample()
        ticker.last_analysis_poll = -ANALYSIS_POLL_SECONDS
        return await leased_by(ticker)

    assert await look_after(ANALYSIS_LONGEST_WAIT_SECONDS - 10) == []  # busy since the process started
    assert await look_after(20) == [str(first.pk)]  # waited its longest: one, busy or not
    assert await look_after(60) == []  # and the wait starts again from there
    assert await look_after(ANALYSIS_LONGEST_WAIT_SECONDS - 50) == [str(second.pk)]


class _QuietPresence:
    """A presence with nothing to do (the ticker's own tick, without a process registered)."""

    async def tick(self) -> None:
        return None

    def due_in(self) -> float:
        return 5.0


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("cpu_after_the_end", "leased"), [(1.2, False), (0.2, True)])
async def test_a_game_s_end_is_judged_by_the_seconds_after_it_not_a_quiet_span_before(settings, cpu_after_the_end,
                                                                                     leased):
    settings.ANALYSIS_CPU_BUDGET_S = 60.0
    settings.ANALYSIS_BUSY_SHARE = 0.25
    ticker, clocks = clocked_ticker(_QuietPresence())
    loop = asyncio.get_running_loop()
    clocks.update(wall=15.0, cpu=0.0)
    await ticker.tick(now=timezone.now())  # quiet until 15 s (nothing queued yet)
    ticker._analyse = _noted  # type: ignore[method-assign]
    _, _, _, finished = await offload(two_player_game)(BLUNDER_GAME)
    clocks.update(wall=16.0, cpu=0.0)
    ticker.analysis_queued()  # the game ends at 16 s: its look is planned two seconds later
    assert ticker.analysis_not_before == pytest.approx(loop.time() + BUSY_SPAN_SECONDS)
    await ticker._start_analysis(timezone.now())  # anything waking the ticker before then judges nothing
    assert ticker.analysis is None
    before = timezone.now()
    next_look = await ticker.tick(now=before)  # and plans its next round for then, not at once
    assert timedelta(seconds=BUSY_SPAN_SECONDS - 0.5) < next_look - before <= timedelta(seconds=BUSY_SPAN_SECONDS)
    assert ticker.analysis is None
    clocks.update(wall=18.0, cpu=cpu_after_the_end)  # (0.075 of a core since 0 at most; 0.6 or 0.1 since 16)
    ticker.analysis_not_before = loop.time()  # (the two seconds passed)
    assert await leased_by(ticker) == ([str(finished.pk)] if leased else [])


async def _noted(job: AnalysisJob) -> None:
    return None
