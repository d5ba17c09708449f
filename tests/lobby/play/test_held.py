"""A drop made from the room as the process holds it (lobby.play.held): written only at the version it was
read at, so a racing drop, a takeback and a timeout still land exactly once; a copy gone stale falls back
to the locked path; a move heard from another process is followed."""

from __future__ import annotations

import copy

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.engine import Peg
from games.models import Game, Move
from live import events as live_events
from live.messages import decode
from lobby import events
from lobby.models import Room
from lobby.play.automatic import CpuJob, game_cpu_move
from lobby.play.held import HELD, Held, HeldRooms
from lobby.play.moves import _drop_held, game_drop, game_resign, game_start
from lobby.play.offers import game_offer
from lobby.protocol import messages
from lobby.rooms.connections import connection_open, process_register
from lobby.rooms.selectors import current_game, room_seats
from lobby.timers import DueReason
from players.models import Player
from tests.layerkit import GroupListener
from tests.lobby.play.test_offers import T0, at, pair
from tests.racekit import race


def connected_pair(**rules: object) -> tuple[str, Player, Player]:
    """Ann (seat 1, Red) and Bob (seat 2) with their first game started at T0, both connected since."""
    code, ann, bob = pair(**rules)
    process_register(process="p", now=T0)
    for player in (ann, bob):
        connection_open(code=code, channel_name=f"chan-{player.name}", player=player, process="p", now=T0)
    HELD.put(held_now(code))  # as the process holds the room once its seats' presence is heard of
    return code, ann, bob


def held_now(code: str) -> Held:
    """The room as it is in the database now, as a process holds it."""
    room = Room.objects.get(code=code)
    game = current_game(room)
    assert game is not None
    return Held(room, room_seats(room), game)


def game_of(code: str) -> Game:
    game = current_game(Room.objects.get(code=code))
    assert game is not None
    return game


def moves_of(code: str) -> list[str]:
    return list(Move.objects.filter(game=game_of(code)).order_by("ply").values_list("peg", flat=True))


@pytest.fixture
def tried(monkeypatch) -> list[object]:
    """What each drop made from a held copy returned (a Game, or None when it fell back to the lock)."""
    from lobby.play import moves

    found: list[object] = []

    def recorded(*args, **kwargs):
        found.append(_drop_held(*args, **kwargs))
        return found[-1]

    monkeypatch.setattr(moves, "_drop_held", recorded)
    return found



@pytest.mark.parametrize("round_", range(3))
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_drops_from_copies_of_the_same_version_exactly_one_lands(round_):
    code, ann, _bob = connected_pair()
    held = held_now(code)
    version = held.room.version
    outcomes = race(*(lambda peg=peg: _drop_held(copy.deepcopy(held), player=ann, peg=Peg.from_name(peg), ply=0,
                                                     now=at(1)) for peg in ("a1", "b2")))
    assert sum(isinstance(o, Game) for o in outcomes) == 1 and outcomes.count(None) == 1, outcomes
    assert len(moves_of(code)) == 1 and game_of(code).ply == 1
    assert Room.objects.get(code=code).version == version + 1  # the loser's statement changed nothing


@pytest.mark.parametrize("round_", range(3))
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_held_drop_and_a_takeback_racing_exactly_one_wins(round_, tried):
    code, ann, bob = connected_pair()
    game_drop(code=code, player=ann, peg="a1", ply=0, now=at(1))
    game_offer(code=code, player=ann, kind="takeback", action="offer", now=at(2))
    HELD.put(held_now(code))  # at the offer's version: Bob's drop is made from it
    tried.clear()
    outcomes = race(
        lambda: game_offer(code=code, player=bob, kind="takeback", action="accept", now=at(3)),
        lambda: game_drop(code=code, player=bob, peg="b1", ply=1, now=at(3)),
    )
    lost = [o for o in outcomes if isinstance(o, str)]
    assert len(lost) == 1 and lost[0] in {"no_offer", "stale", "not_your_turn"}, outcomes
    game = game_of(code)
    assert game.ply == len(moves_of(code)) == (2 if lost[0] == "no_offer" else 0)
    assert len(tried) == 1  # the drop was made from the held copy (and fell back if the takeback won)


@pytest.mark.parametrize("round_", range(3))
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_held_drop_and_the_turn_timer_racing_exactly_one_move_is_played(round_, tried):
    code, ann, _bob = connected_pair(turn_seconds=30)
    job = CpuJob(game_id=str(game_of(code).pk), code=code, ply=0, seat=1, record="", level=1,
                 reason=DueReason.TIMEOUT)
    HELD.put(held_now(code))
    outcomes = race(
        lambda: game_cpu_move(job=job, peg="d4", now=at(31)),  # Ann's 30 s ran out
        lambda: game_drop(code=code, player=ann, peg="a1", ply=0, now=at(29)),
    )
    played = [o for o in outcomes if o is True or isinstance(o, Game)]
    assert len(played) == 1, outcomes
    assert moves_of(code) in (["a1"], ["d4"]) and game_of(code).ply == 1
    assert len(tried) == 1


@pytest.mark.django_db(transaction=True)
def test_a_copy_gone_stale_falls_back_to_the_lock_and_the_move_lands_once():
    code, ann, bob = connected_pair()
    game_drop(code=code, player=ann, peg="a1", ply=0, now=at(1))
    stale = held_now(code)
    game_offer(code=code, player=ann, kind="draw", action="offer", now=at(2))  # as another process would
    HELD.clear()
    HELD.put(stale)
    version = Room.objects.get(code=code).version
    with CaptureQueriesContext(connection) as captured:
        game_drop(code=code, player=bob, peg="b1", ply=1, now=at(3))
    assert len(captured.captured_queries) > 3  # the guarded statement missed, then the locked path
    game = game_of(code)
    assert (game.ply, game.record, game.draw_offer_seat) == (2, "a1 b1", None)  # Bob's move answers the offer
    assert moves_of(code) == ["a1", "b1"]
    assert Room.objects.get(code=code).version == version + 1  # the missed statement bumped nothing


@pytest.mark.django_db(transaction=True)
def test_a_refusal_read_from_the_held_copy_is_the_locked_paths():
    code, ann, bob = connected_pair()
    with pytest.raises(Exception) as refused:
        game_drop(code=code, player=bob, peg="a1", ply=0, now=at(1))
    assert getattr(refused.value, "code", None) == "not_your_turn"
    game_drop(code=code, player=ann, peg="a1", ply=0, now=at(2))  # the room is held again, as it was
    assert moves_of(code) == ["a1"]


@pytest.mark.django_db(transaction=True)
def test_a_process_follows_a_move_it_heard_and_moves_from_it_in_one_statement():
    code, ann, bob = connected_pair()
    here = HeldRooms()
    here.put(held_now(code))  # this process, at the start
    listener = GroupListener(events.room_group(code))
    try:
        HELD.clear()  # Ann's move is made by another process, from nothing held
        game_drop(code=code, player=ann, peg="a1", ply=0, now=at(1))
        heard = decode(listener.receive())
    finally:
        listener.close()
    assert isinstance(heard, messages.RoomMove)
    here.follow(code, heard)
    followed = here.take(code)
    assert followed is not None and followed.room.version == heard.version and followed.game.record == "a1"
    with CaptureQueriesContext(connection) as captured:
        game = _drop_held(followed, player=bob, peg=Peg.from_name("b1"), ply=1, now=at(2))
    assert game is not None and game.ply == 2
    assert len(captured.captured_queries) == (1 if connection.vendor == "postgresql" else 5)  # + BEGIN, COMMIT
    assert moves_of(code) == ["a1", "b1"]


@pytest.mark.django_db(transaction=True)
def test_a_heard_move_that_does_not_follow_lets_the_copy_go():
    code, ann, _bob = connected_pair()
    here = HeldRooms()
    held = held_now(code)
    here.put(held)
    move = messages.RoomMove(held.room.version + 1, "playing", "{}", game=str(held.game.pk), ply=1, peg="a1",
                             seat=1, cpu=True)  # the CPU stood in for Ann: her seat's timeouts changed
    here.follow(code, move)
    assert here.take(code) is None
    here.put(held)
    here.forget(code, held.room.version + 2)  # a snapshot of a newer version
    assert here.take(code) is None


@pytest.mark.django_db(transaction=True)
def test_the_room_is_held_before_its_frame_leaves_under_the_lock_and_at_a_games_start(monkeypatch):
    """The next player may move the moment they hear of a move or a start: by then the room is held, or
    that next move would take the locked path, and so every move after it under load."""
    code, ann, bob = connected_pair()
    held_when_sent: list[bool] = []

    def deliver(event: live_events.Event) -> None:
        if isinstance(event, live_events.ToGroup) and event.group == events.room_group(code):
            found = HELD.take(code)
            held_when_sent.append(found is not None)
            if found is not None:
                HELD.put(found)

    monkeypatch.setattr(live_events, "_delivery", [deliver])
    HELD.clear()  # as after another process's change: the drop takes the locked path
    game_drop(code=code, player=ann, peg="a1", ply=0, now=at(1))
    game_resign(code=code, player=bob, now=at(2))
    game_start(code=code, player=ann, now=at(3))
    assert held_when_sent and held_when_sent[0] is True  # the locked drop's move frame
    assert held_when_sent[-1] is True  # the new game's snapshot
