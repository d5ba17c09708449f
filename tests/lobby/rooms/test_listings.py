"""The lobby's lists and their REST side: live games best-rated first and paged, open rooms, taking a seat."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.utils import timezone

from common.errors import Refused
from games.models import Game
from lobby.play.moves import game_drop, game_resign, game_start
from lobby.rooms.connections import connection_close, connection_open, process_register
from lobby.rooms.listings import LIVE_IDLE, live_games, open_rooms
from lobby.rooms.services import room_create, room_set_rules, room_sit, rooms_close_idle
from players.models import Player
from players.services import player_create
from ratings.models import PlayerRating

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def person(name, rating=None):
    player = player_create(name=name, now=T0)
    if rating is not None:
        PlayerRating.objects.create(player=player, rating=rating, rd=60, games=10)
    return player


def person_named(name):
    return Player.objects.get(name=name)


def game_between(red, yellow, *, at=T0, connected=True, **rules):
    """A game started in a new room; ``connected``: Red opens the room (a game nobody opened is not live)."""
    room = room_create(host=red, rules=rules, now=at)
    if yellow is not None:
        room_sit(code=room.code, player=yellow, now=at)
    game_start(code=room.code, player=red, now=at)
    if connected:
        process_register(process="p1", now=at)
        connection_open(code=room.code, channel_name=f"{room.code}-red", player=red, process="p1", now=at)
    return room.code


def test_live_games_are_between_people_best_rated_first_and_paged():
    strong = game_between(person("Ann", 1900), person("Bob", 1850), ranked=True, turn_seconds=30)
    weak = game_between(person("Cy"), person("Di"), ranked=False)  # never rated: 1500 each
    middle = game_between(person("Ed", 1700), person("Flo", 1800))
    game_between(person("Solo", 2400), None)  # against the CPU: not listed
    over = game_between(person("Gil", 2300), person("Hal", 2300))
    game_resign(code=over, player=person_named("Gil"), now=T0)
    game_between(person("Ivy", 2200), person("Jo", 2200), at=T0 - LIVE_IDLE - timedelta(seconds=1))  # idle
    game_between(person("Kit", 2100), person("Lu", 2100), at=T0 - timedelta(hours=30))
    rooms_close_idle(now=T0, idle=timedelta(hours=24))  # Kit and Lu's room closes
    game_drop(code=strong, player=person_named("Ann"), peg="b2", ply=0, now=T0)
    by_post = game_between(person("Mo", 2500), person("Ned", 2500))
    Game.objects.filter(room__code=by_post).update(days_per_move=3)  # correspondence: not live

    listed = live_games(now=T0, limit=10)
    assert listed["count"] == 3
    assert [g["code"] for g in listed["results"]] == [strong, middle, weak]
    first = listed["results"][0]
    assert first["red"]["player"]["name"] == "Ann" and first["red"]["rating"]["display"] == "1900"
    assert first["yellow"]["player"]["name"] == "Bob" and first["yellow"]["rating"]["display"] == "1850"
    assert (first["ply"], first["moves"], first["ranked"], first["turn_seconds"]) == (1, ["b2"], True, 30)
    assert first["number"] == 1 and first["started_at"] == "2026-12-01T12:00:00.000Z"
    page = live_games(now=T0, limit=2, offset=1)
    assert page["count"] == 3 and [g["code"] for g in page["results"]] == [middle, weak]


def test_a_game_nobody_has_connected_to_is_not_live_until_a_player_connects():
    ann, bob = person("Ann", 1900), person("Bob", 1850)
    code = game_between(ann, bob, connected=False)
    assert live_games(now=T0)["count"] == 0
    process_register(process="p1", now=T0)
    connection_open(code=code, channel_name="bob-tab", player=bob, process="p1", now=T0 + timedelta(seconds=5))
    assert [g["code"] for g in live_games(now=T0 + timedelta(seconds=5))["results"]] == [code]
    # Having been there is enough: a player who leaves for a moment does not take the game off the list.
    connection_close(channel_name="bob-tab", now=T0 + timedelta(seconds=9))
    assert live_games(now=T0 + timedelta(seconds=10))["count"] == 1


def test_an_open_room_is_listed_only_while_someone_could_join_and_play():
    hana = person("Hana", 1650)
    code = room_create(host=hana, rules={"open": True}, now=T0).code
    assert open_rooms(now=T0) == []  # the host is not there
    process_register(process="p1", now=T0)
    connection_open(code=code, channel_name="hana-tab", player=hana, process="p1", now=T0)
    [listed] = open_rooms(now=T0)
    assert listed == {
        "code": code,
        "host": {"id": str(hana.id), "name": "Hana"},
        "rating": {"rating": 1650.0, "rd": listed["rating"]["rd"], "provisional": False, "display": "1650"},
        "turn_seconds": None,
        "ranked": True,
        "since": "2026-12-01T12:00:00.000Z",
    }
    game_start(code=code, player=hana, now=T0)  # Hana plays the CPU meanwhile: the seat is not free
    assert open_rooms(now=T0) == []
    game_resign(code=code, player=hana, now=T0)  # between games the CPU's seat is free again
    assert [r["code"] for r in open_rooms(now=T0)] == [code]
    later = T0 + timedelta(seconds=20)
    room_set_rules(code=code, player=hana, changes={"open": False}, now=later)
    assert open_rooms(now=later) == []
    room_set_rules(code=code, player=hana, changes={"open": True}, now=later)
    assert open_rooms(now=later)[0]["since"] == "2026-12-01T12:00:20.000Z"  # waiting since it reopened
    connection_close(channel_name="hana-tab", now=later)  # the host's last tab closes
    assert open_rooms(now=later) == []


def test_the_open_rule_is_validated_like_the_others():
    hana = person("Hana")
    with pytest.raises(Refused) as refused:
        room_create(host=hana, rules={"open": "yes"}, now=T0)
    assert refused.value.code == "bad_rules"


# --- REST ------------------------------------------------------------------------------------------
@pytest.fixture
def device():
    client = Client(enforce_csrf_checks=True)
    client.get("/api/session")
    return client


def post(client, url, data=None):
    return client.post(
        url, data or {}, content_type="application/json", HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value
    )


def test_rest_live_games_are_paged_and_bad_queries_refused(device):
    # Now, not T0: the view lists the games active within LIVE_IDLE of the clock's time.
    code = game_between(person("Ann", 1900), person("Bob", 1850), at=timezone.now())
    answer = device.get("/api/games/live?limit=5")
    assert answer.status_code == 200
    body = answer.json()
    assert (body["count"], body["limit"], body["offset"]) == (1, 5, 0) and body["results"][0]["code"] == code
    assert device.get("/api/games/live?offset=1").json()["results"] == []
    for bad in ("limit=0", "limit=101", "limit=x", "offset=-1"):
        refused = device.get(f"/api/games/live?{bad}")
        assert refused.status_code == 400 and refused.json()["code"] == "bad_request"


def test_rest_take_a_seat_from_the_lobby(device):
    hana = person("Hana")
    code = room_create(host=hana, rules={"open": True}, now=T0).code
    seated = post(device, f"/api/rooms/{code.lower()}/seat")
    assert seated.status_code == 200
    room = seated.json()
    guest = room["seats"][1]["player"]  # named for its id: two guests are told apart
    assert room["you"]["seat"] == 2 and guest["name"] == f"Guest {guest['id'][:4].upper()}"
    assert post(device, f"/api/rooms/{code}/seat").json()["you"]["seat"] == 2  # already there: the same seat
    other = Client(enforce_csrf_checks=True)
    other.get("/api/session")
    taken = post(other, f"/api/rooms/{code}/seat")
    assert taken.status_code == 409 and taken.json()["code"] == "seat_taken"
    missing = post(other, "/api/rooms/ZZZZZZ/seat")
    assert missing.status_code == 404 and missing.json()["code"] == "no_room"
    assert device.post(f"/api/rooms/{code}/seat", {}, content_type="application/json").status_code == 403  # no CSRF


def test_the_schema_lists_the_live_games(device):
    schema = device.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    live = schema["paths"]["/api/games/live"]["get"]
    assert {p["name"] for p in live["parameters"]} == {"limit", "offset"}
    assert "/api/rooms/{code}/seat" in schema["paths"]
