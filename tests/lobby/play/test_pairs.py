"""The one room for two: both seated, the game started with the settings the pairing chose, the colours
as asked, and not one statement more than making the room and starting its game."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from common.errors import Refused
from games.models import Game, GameStatus
from lobby.models import Room
from lobby.play.moves import game_start
from lobby.play.pairs import GameSettings, room_for_two, rooms_for_two
from lobby.rooms.services import room_create
from players.services import player_create

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def two():
    return player_create(name="Ann", now=T0), player_create(name="Bob", now=T0)


@pytest.mark.parametrize(("colour", "ann_seat"), [("red", 1), ("yellow", 2)])
def test_the_first_plays_the_colour_asked_red_hosting_in_seat_one(colour, ann_seat):
    ann, bob = two()
    made = room_for_two(first=ann, second=bob, colour=colour, settings=GameSettings(turn_seconds=30, ranked=True),
                        now=T0)
    seats = dict(made.room.seats.values_list("player_id", "number"))
    assert seats == {ann.pk: ann_seat, bob.pk: 3 - ann_seat}
    assert made.room.host_id == made.red.pk == (ann.pk if colour == "red" else bob.pk)
    assert made.yellow.pk == ({ann.pk, bob.pk} - {made.red.pk}).pop()
    assert (made.game.status, made.game.red_seat, made.game.red_player_id) == (GameStatus.PLAYING, 1, made.red.pk)


def test_a_coin_decides_when_the_colour_is_random():
    reds = set()
    for _ in range(40):  # the chance that 40 coins all fall one way: 2 in a million million
        ann, bob = two()
        reds.add(room_for_two(first=ann, second=bob, settings=GameSettings(turn_seconds=None, ranked=False),
                              now=T0).red.name)
    assert reds == {"Ann", "Bob"}


def test_the_settings_become_the_rooms_rules_and_the_games():
    ann, bob = two()
    settings = GameSettings(turn_seconds=60, ranked=False, alternate_first=False)
    made = room_for_two(first=ann, second=bob, colour="red", settings=settings, now=T0)
    room = Room.objects.get(code=made.room.code)
    assert (room.turn_seconds, room.ranked, room.alternate_first, room.open) == (60, False, False, False)
    assert (made.game.turn_seconds, made.game.ranked, made.game.tournament_id) == (60, False, None)


def test_settings_out_of_range_are_refused_and_nothing_is_written():
    ann, bob = two()
    with pytest.raises(Refused) as refused:
        room_for_two(first=ann, second=bob, settings=GameSettings(turn_seconds=45, ranked=True), now=T0)
    assert refused.value.code == "bad_rules"
    assert not Room.objects.exists()


def test_it_runs_the_statements_of_making_the_room_and_starting_its_game_and_no_more():
    settings = GameSettings(turn_seconds=30, ranked=True)
    ann, bob = two()
    with transaction.atomic(), CaptureQueriesContext(connection) as by_hand:
        room = room_create(host=ann, guest=bob, rules=settings.rules(), now=T0)
        game_start(code=room.code, player=ann, now=T0)
    carol, dan = player_create(name="Carol", now=T0), player_create(name="Dan", now=T0)
    with transaction.atomic(), CaptureQueriesContext(connection) as paired:
        room_for_two(first=carol, second=dan, colour="red", settings=settings, now=T0)
    assert len(paired.captured_queries) == len(by_hand.captured_queries)


# --- many rooms for two at once (an arena's wave) -------------------------------------------------------
ROOM_FIELDS = ["host_id", "turn_seconds", "days_per_move", "alternate_first", "ranked", "cpu_level", "spectator_chat",
               "open", "open_since", "made_for_two", "version", "spectators", "created_at", "last_activity_at",
               "closed_at"]
SEAT_FIELDS = ["number", "player_id", "cpu", "wants_again", "away", "disconnected_at", "timeouts_in_row"]
GAME_FIELDS = ["number", "status", "red_seat", "red_player_id", "yellow_player_id", "red_cpu", "yellow_cpu",
               "cpu_level", "ranked", "turn_seconds", "days_per_move", "warn_at", "tournament_id", "ply", "record",
               "stakes", "started_at", "turn_started_at", "deadline", "due_at", "lease_until"]


def rows_of(code: str) -> tuple[dict, list[dict], list[dict]]:
    room = Room.objects.get(code=code)
    return (
        {name: getattr(room, name) for name in ROOM_FIELDS},
        list(room.seats.order_by("number").values(*SEAT_FIELDS)),
        list(Game.objects.filter(room=room).values(*GAME_FIELDS)),
    )


@pytest.mark.parametrize("played", [GameSettings(turn_seconds=30, ranked=True, alternate_first=False),
                                      GameSettings(turn_seconds=None, ranked=False, days_per_move=3)],
                         ids=["ranked arena", "correspondence"])
def test_rooms_for_two_at_once_are_the_rows_one_room_for_two_makes_in_a_few_statements(played):
    people = [player_create(name=f"P{i}", now=T0) for i in range(18)]
    pairs = [(people[i], people[i + 1]) for i in range(0, 18, 2)]
    with transaction.atomic():
        one = room_for_two(first=people[0], second=people[1], colour="red", settings=played, now=T0)
    with transaction.atomic(), CaptureQueriesContext(connection) as few:
        two = rooms_for_two(pairs[1:3], settings=played, now=T0)
    with transaction.atomic(), CaptureQueriesContext(connection) as many:
        six = rooms_for_two(pairs[3:], settings=played, now=T0)
    assert len(many.captured_queries) == len(few.captured_queries) <= 8  # however many pairs
    expected = rows_of(one.room.code)
    for made, (red, yellow) in zip([*two, *six], pairs[1:], strict=True):
        room, seats, games = rows_of(made.room.code)
        swap = {people[0].pk: red.pk, people[1].pk: yellow.pk}
        assert room == {**expected[0], "host_id": red.pk}
        assert seats == [{**seat, "player_id": swap[seat["player_id"]]} for seat in expected[1]]
        [game] = games
        first = dict(expected[2][0])
        stakes = game.pop("stakes")
        first_stakes = first.pop("stakes")
        assert game == {**first, "red_player_id": red.pk, "yellow_player_id": yellow.pk}
        assert stakes.keys() == first_stakes.keys()  # (the ratings themselves are each player's)
    assert len({made.room.code for made in [one, *two, *six]}) == 9
