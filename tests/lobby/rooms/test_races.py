"""Racing writes on PostgreSQL: real concurrent transactions, exactly one wins."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction
from django.utils import timezone

from games.models import Move
from lobby.models import Seat
from lobby.play.moves import game_drop, game_start
from lobby.rooms.connections import connection_open, process_register
from lobby.rooms.services import room_create, room_lock, room_sit
from players.accounts import guest_hand_over
from players.services import player_create
from tests.racekit import race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("round_", range(5))
def test_two_drops_for_the_same_ply_exactly_one_is_accepted(round_):
    now = timezone.now()
    ann, bob = player_create(name="Ann", now=now), player_create(name="Bob", now=now)
    code = room_create(host=ann, rules={}, now=now).code
    room_sit(code=code, player=bob, now=now)
    game = game_start(code=code, player=ann, now=now)
    outcomes = race(
        lambda: game_drop(code=code, player=ann, peg="a1", ply=0, now=timezone.now()),
        lambda: game_drop(code=code, player=ann, peg="b2", ply=0, now=timezone.now()),
    )
    assert sorted(map(str, outcomes)).count("stale") == 1, outcomes
    assert Move.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert game.ply == 1


def test_a_spectator_joins_while_the_room_is_locked_for_a_change():
    """A crowd joining never queues behind the room's lock (the one every move and seat change takes)."""
    now = timezone.now()
    ann = player_create(name="Ann", now=now)
    watcher = player_create(name="Watcher", now=now)
    code = room_create(host=ann, rules={}, now=now).code
    process_register(process="p1", now=now)
    joined = threading.Event()

    def hold_the_lock() -> bool:
        with transaction.atomic():
            room_lock(code)
            return joined.wait(timeout=10)  # released only once the spectator is in (or after 10 s)

    def join() -> str:
        try:
            opened = connection_open(code=code, channel_name="watcher-tab", player=watcher, process="p1",
                                     now=timezone.now())
            joined.set()
            return "spectator" if opened.spectator else "seated"
        finally:
            connection.close()

    holder = threading.Thread(target=lambda: results.append(hold_the_lock()))
    results: list[bool] = []
    holder.start()
    while not results and not _room_locked(code):
        pass
    assert join() == "spectator"
    holder.join(timeout=15)
    assert results == [True], "the join waited for the room's lock"


def _room_locked(code: str) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation "
                       "WHERE c.relname = 'lobby_room' AND l.granted AND NOT l.pid = pg_backend_pid()")
        return bool(cursor.fetchone()[0])


def sit(code, guest, bob):
    return room_sit(code=code, player=bob, now=timezone.now())


def log_in(code, guest, bob):
    """The guest sitting in the room logs into Bob's account: its seat is handed over to Bob."""
    return guest_hand_over(guest=guest, account=bob, now=timezone.now())


@pytest.mark.parametrize("round_", range(5))
@pytest.mark.parametrize("seating", [sit, log_in])
def test_a_player_seated_while_opening_another_tab_shows_connected(seating, round_):
    """A change seating Bob (he sits down; a guest's seat is handed to him on login) and his join take
    turns on his row: whichever comes second sees the other, so the seat never shows a connected player
    as disconnected."""
    now = timezone.now()
    guest, bob = player_create(name="Guest", now=now), player_create(name="Bob", now=now)
    code = room_create(host=guest, rules={}, now=now).code
    process_register(process="p1", now=now)
    race(
        lambda: seating(code, guest, bob),
        lambda: connection_open(code=code, channel_name=f"bob-{round_}", player=bob, process="p1", now=timezone.now()),
    )
    seat = Seat.objects.get(room__code=code, player=bob)
    assert seat.disconnected_at is None
