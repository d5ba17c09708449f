"""Turn timers, grace periods, the CPU stand-in and reclaim, with an injected clock.

The services are called as the ticker calls them (claim -> job -> move), at chosen instants.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from games.engine.cpu import choose_move
from games.models import Game, Move
from lobby.models import Seat
from lobby.play.automatic import game_cpu_move, game_due_job
from lobby.play.moves import game_drop, game_start
from lobby.rooms.connections import connection_close, connection_open, process_beat, process_register, processes_sweep
from lobby.rooms.services import room_create, room_sit
from lobby.timers import Looked, games_claim_due
from players.services import player_create

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
LEASE = timedelta(seconds=15)
PROCESS = "test-process"


@pytest.fixture(autouse=True)
def _connections_stay_alive(settings):
    """These tests jump the clock by minutes without heartbeats; only the sweep tests let them lapse."""
    settings.PING_TIMEOUT_SECONDS = 10**6


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def run_due(now: datetime) -> list[tuple[int, str, str]]:
    """Do what the ticker would do at ``now``; returns (ply, seat, reason) of each CPU move made."""
    made = []
    for game_id in games_claim_due(now=now, lease=LEASE):
        job = game_due_job(game_id=game_id, now=now)
        if job is None:
            continue
        peg = choose_move(job.record, job.level, budget_ms=20, seed=1)
        if game_cpu_move(job=job, peg=peg, now=now):
            made.append((job.ply, job.seat, str(job.reason)))
    return made


def setup_game(*, turn_seconds=None, solo=False, connect=(1, 2)):
    ann = player_create(name="Ann", now=T0)
    bob = player_create(name="Bob", now=T0)
    room = room_create(host=ann, rules={"turn_seconds": turn_seconds, "cpu_level": 2}, now=T0)
    if not solo:
        room_sit(code=room.code, player=bob, now=T0)
    players = {1: ann, 2: bob}
    process_register(process=PROCESS, now=T0)
    for seat in connect:
        connection_open(code=room.code, channel_name=f"chan-{seat}", player=players[seat], process=PROCESS, now=T0)
    game = game_start(code=room.code, player=ann, now=T0)
    return room.code, players, game


def moves(game: Game) -> list[tuple[int, str, bool, str]]:
    return list(Move.objects.filter(game=game).order_by("ply").values_list("ply", "peg", "cpu", "cpu_reason"))


def seat(code: str, number: int) -> Seat:
    return Seat.objects.get(room__code=code, number=number)


def test_turn_timer_runs_out_and_the_cpu_plays_that_move_once(settings):
    code, players, game = setup_game(turn_seconds=30)
    assert game.deadline == at(30)
    assert run_due(at(29.9)) == []
    assert run_due(at(30)) == [(0, 1, "timeout")]
    assert run_due(at(30)) == []  # idempotent: the same expiry never plays twice
    assert run_due(at(31)) == []
    [(ply, _, cpu, reason)] = moves(game)
    assert (ply, cpu, reason) == (0, True, "timeout")
    game.refresh_from_db()
    assert game.ply == 1 and game.deadline == at(60)  # Bob's turn, with a fresh timer
    assert seat(code, 1).timeouts_in_row == 1 and not seat(code, 1).away


def test_two_timeouts_in_a_row_make_the_seat_away_until_the_player_acts():
    code, players, game = setup_game(turn_seconds=30)
    assert run_due(at(30)) == [(0, 1, "timeout")]
    game_drop(code=code, player=players[2], peg="d4", ply=1, now=at(35))
    assert run_due(at(65)) == [(2, 1, "timeout")]
    assert seat(code, 1).away
    game_drop(code=code, player=players[2], peg="d4", ply=3, now=at(66))
    # away: the CPU plays Ann's turns at once, without waiting for the timer
    assert run_due(at(66)) == [(4, 1, "away")]
    game_drop(code=code, player=players[2], peg="d3", ply=5, now=at(67))
    game_drop(code=code, player=players[1], peg="a1", ply=6, now=at(68))  # Ann acts again: back
    assert not seat(code, 1).away and seat(code, 1).timeouts_in_row == 0
    assert run_due(at(69)) == []


def test_a_timeout_is_not_played_after_the_move_it_replaces():
    code, players, game = setup_game(turn_seconds=30)
    claimed = games_claim_due(now=at(30), lease=LEASE)
    job = game_due_job(game_id=claimed[0], now=at(30))
    assert job is not None
    game_drop(code=code, player=players[1], peg="b2", ply=0, now=at(30.2))  # Ann was faster
    assert game_cpu_move(job=job, peg="c3", now=at(30.5)) is False
    assert [m[1] for m in moves(game)] == ["b2"]


def test_grace_counts_only_on_the_absent_seats_turn(settings):
    settings.DISCONNECT_GRACE_SECONDS = 20
    code, players, game = setup_game()
    connection_close(channel_name="chan-2", now=at(1))  # Bob drops while Ann thinks
    assert run_due(at(25)) == []
    game_drop(code=code, player=players[1], peg="a1", ply=0, now=at(10))
    game.refresh_from_db()
    assert game.due_at == at(30)  # Bob's turn began at 10: grace runs from then
    assert run_due(at(29)) == []
    assert run_due(at(30)) == [(1, 2, "away")]
    assert seat(code, 2).away
    # the stand-in keeps playing Bob's turns until he returns
    game_drop(code=code, player=players[1], peg="a2", ply=2, now=at(31))
    assert run_due(at(31)) == [(3, 2, "away")]


def test_the_earlier_of_timer_and_grace_applies(settings):
    settings.DISCONNECT_GRACE_SECONDS = 20
    code, players, game = setup_game(turn_seconds=30, connect=(2,))  # Ann never connected
    game.refresh_from_db()
    assert game.due_at == at(20)
    assert run_due(at(20)) == [(0, 1, "away")]
    settings.DISCONNECT_GRACE_SECONDS = 45
    code, players, game = setup_game(turn_seconds=30, connect=(2,))
    game.refresh_from_db()
    assert game.due_at == at(30)
    assert run_due(at(30)) == [(0, 1, "timeout")]


def test_reclaim_during_a_stand_in_computation_discards_its_move(settings):
    settings.DISCONNECT_GRACE_SECONDS = 5
    code, players, game = setup_game(connect=(2,))
    [game_id] = games_claim_due(now=at(5), lease=LEASE)
    job = game_due_job(game_id=game_id, now=at(5))
    assert job is not None and seat(code, 1).away
    connection_open(code=code, channel_name="chan-1b", player=players[1], process=PROCESS, now=at(5.5))  # Ann is back
    assert not seat(code, 1).away
    assert game_cpu_move(job=job, peg="a1", now=at(6)) is False
    assert moves(game) == []
    game_drop(code=code, player=players[1], peg="c3", ply=0, now=at(7))
    assert [m[2] for m in moves(game)] == [False]


def test_no_stand_in_against_the_cpu_alone(settings):
    settings.DISCONNECT_GRACE_SECONDS = 1
    code, players, game = setup_game(solo=True, turn_seconds=30, connect=(1,))
    game_drop(code=code, player=players[1], peg="a1", ply=0, now=at(1))
    assert run_due(at(1)) == [(1, 2, "seat")]  # the CPU seat answers at once
    connection_close(channel_name="chan-1", now=at(2))
    assert run_due(at(3600)) == []  # it waits for the person, timer or not
    assert not seat(code, 1).away


def test_nothing_moves_while_nobody_is_there(settings):
    settings.DISCONNECT_GRACE_SECONDS = 5
    code, players, game = setup_game(turn_seconds=30)
    connection_close(channel_name="chan-1", now=at(1))
    connection_close(channel_name="chan-2", now=at(1))
    assert run_due(at(600)) == []
    connection_open(code=code, channel_name="chan-2b", player=players[2], process=PROCESS, now=at(700))
    # Bob is back; Ann's grace (from her turn's start, long past) has run out: the CPU stands in now
    assert run_due(at(700)) == [(0, 1, "away")]


def test_a_dead_processs_connections_are_swept_once_its_heartbeat_lapses(settings):
    settings.PING_TIMEOUT_SECONDS = 30
    settings.DISCONNECT_GRACE_SECONDS = 10
    code, players, game = setup_game()
    assert process_beat(process=PROCESS, now=at(10))
    assert processes_sweep(now=at(39)) == 0  # beat at 10: live until 40
    assert seat(code, 1).disconnected_at is None
    assert processes_sweep(now=at(41)) == 1  # no beat since: a dead server process; its one room is swept
    assert seat(code, 1).disconnected_at == at(41) and seat(code, 2).disconnected_at == at(41)
    assert processes_sweep(now=at(42)) == 0  # nothing left to sweep
    game.refresh_from_db()
    assert game.due_at is None  # nobody is there: the game waits


def test_a_due_game_is_leased_to_one_process_at_a_time():
    code, players, game = setup_game(turn_seconds=30)
    assert games_claim_due(now=at(30), lease=LEASE) == [str(game.id)]
    assert games_claim_due(now=at(31), lease=LEASE) == []
    assert games_claim_due(now=at(46), lease=LEASE) == [str(game.id)]  # the lease lapsed: retry


def test_a_swept_process_that_wakes_up_registers_again_and_its_seat_is_connected_again(settings):
    settings.PING_TIMEOUT_SECONDS = 30
    code, players, game = setup_game(connect=(1,))
    process_register(process="stalled", now=T0)
    connection_open(code=code, channel_name="chan-2", player=players[2], process="stalled", now=T0)
    assert process_beat(process=PROCESS, now=at(20))
    assert processes_sweep(now=at(40)) == 1  # the stalled process's one room
    assert seat(code, 2).disconnected_at == at(40) and seat(code, 1).disconnected_at is None
    # It wakes up: its heartbeat finds it was swept, so it registers anew and opens its sockets again.
    assert not process_beat(process="stalled", now=at(41))
    process_register(process="stalled-2", now=at(41))
    connection_open(code=code, channel_name="chan-2", player=players[2], process="stalled-2", now=at(41))
    assert seat(code, 2).disconnected_at is None
    assert processes_sweep(now=at(42)) == 0


def test_one_look_claims_what_is_due_and_names_the_earliest_other_deadline():
    from lobby.timers import games_due

    code, players, game = setup_game(turn_seconds=30)
    _, _, later = setup_game(turn_seconds=60)
    assert games_due(now=at(1), lease=LEASE) == Looked([], at(30))
    assert games_due(now=at(30), lease=LEASE) == Looked([str(game.id)], at(60))  # leased now: the next is later's
    assert games_due(now=at(31), lease=LEASE) == Looked([], at(60))
    # game's lease (15 s) lapsed unreported: due again, first; at the limit, the next named is due already
    assert games_due(now=at(61), lease=LEASE, limit=1) == Looked([str(game.id)], at(60))
    assert games_due(now=at(62), lease=LEASE) == Looked([str(later.id)], None)  # both leased now
