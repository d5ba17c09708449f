"""Moderation: closing a room (admin, idle) abandons its game and says so to its pages; a ban closes the
player's sockets and refuses new ones."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.operations import RunPython
from django.test import Client as HttpClient
from django.utils import timezone

from games.models import EndReason, Game, GameStatus
from games.selectors import game_record, player_profile
from lobby.models import Connection, Room
from lobby.play.moves import game_drop
from lobby.rooms.services import room_close, rooms_close_idle
from players.models import Player
from players.services import player_ban, player_unban
from ratings.models import RatingChange
from tests.lobbykit import LobbyClient
from tests.ratings.ratingkit import T0, at, make_table
from tests.roomkit import Client, at_ply, make_player_async, make_room_async, seated_pair
from tests.socketkit import SocketClient

# --- closing rooms ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_closing_idle_rooms_abandons_their_unfinished_games():
    table = make_table(ranked=True)
    game = table.start(now=at())
    game_drop(code=table.code, player=table.seat_player(game.red_seat), peg="a1", ply=0, now=at(1))
    closed = rooms_close_idle(now=at(days=2), idle=timedelta(hours=24))
    assert closed == [table.code]
    game.refresh_from_db()
    assert (game.status, game.reason, game.finished_at) == (GameStatus.ABANDONED, EndReason.IDLE, at(days=2))
    assert game.due_at is None and game.deadline is None and game.winner_seat is None
    assert not RatingChange.objects.exists()  # a ranked game between two people, never rated
    record = game_record(str(game.pk))
    assert (record["status"], record["reason"], record["winner"]) == ("abandoned", "idle", None)
    assert [m["peg"] for m in record["moves"]] == ["a1"]


@pytest.mark.django_db
def test_a_player_page_lists_an_abandoned_game_without_a_result():
    table = make_table(ranked=True)
    table.start(now=at())
    room_close(code=table.code, now=at(60))
    (recent,) = player_profile(str(table.ann.pk), now=at(120))["recent_games"]
    assert (recent["status"], recent["result"], recent["rated"]) == ("abandoned", None, False)


@pytest.mark.django_db
def test_closing_a_room_twice_or_an_unknown_room_changes_nothing():
    table = make_table()
    table.start(now=at())
    assert room_close(code=table.code, now=at(5)) is True
    assert room_close(code=table.code, now=at(9)) is False
    assert room_close(code="NOPE22", now=at(9)) is False
    assert Room.objects.get(code=table.code).closed_at == at(5)
    assert Game.objects.get(room__code=table.code).finished_at == at(5)


@pytest.mark.django_db
def test_a_closed_room_answers_410_over_rest():
    table = make_table()
    room_close(code=table.code, now=at())
    response = HttpClient().get(f"/api/rooms/{table.code}")
    assert response.status_code == 410
    assert response.json() == {"code": "room_closed", "message": f"Room {table.code} was closed."}
    assert HttpClient().get("/api/rooms/NOPE22").status_code == 404


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("runtime_cleanup")
async def test_closing_a_room_ends_its_game_and_tells_every_page_before_closing_their_sockets():
    code, a, b = await seated_pair()
    watcher = await Client(code, None).connect()
    await a.send(type="start")
    await a.wait_room(at_ply(0))
    await a.drop("a1")
    await b.wait_room(at_ply(1))
    assert await sync_to_async(room_close)(code=code, now=timezone.now())
    for client in (a, b, watcher):
        last = await client.wait_room(lambda r: r["closed_at"] is not None)
        assert last["game"]["status"] == "abandoned" and last["game"]["reason"] == "closed"
        assert last["game"]["moves"] == ["a1"]
        assert (await client.error())["code"] == "room_closed"
        assert (await client.comm.receive_output(timeout=5)) == {"type": "websocket.close", "code": 4410}
    assert not await sync_to_async(Connection.objects.filter(room__code=code).exists)()
    # Opening the room's page again: its last snapshot, then the same close.
    again = Client(code, a.session_key)
    connected, _ = await again.comm.connect()
    assert connected
    assert (await again.wait_room(lambda r: True))["closed_at"] is not None
    assert (await again.error())["code"] == "room_closed"
    assert (await again.comm.receive_output(timeout=5))["code"] == 4410


# --- bans ----------------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("runtime_cleanup")
async def test_a_ban_closes_every_socket_of_the_player_and_refuses_new_ones_until_lifted():
    ann, ann_key = await make_player_async("Ann")
    _, bob_key = await make_player_async("Bob")
    code = await make_room_async(ann)
    other_room = await make_room_async(ann)
    a = await Client(code, ann_key).connect()
    a2 = await Client(other_room, ann_key).connect()
    b = await Client(code, bob_key).connect()
    lobby = await LobbyClient(ann_key).connect()  # the lobby's socket, where the banned seeked and was paired
    page = await SocketClient("/ws/player/", ann_key).connect()  # a page without a room: its notifications
    await sync_to_async(player_ban)(player=ann, now=timezone.now())
    for client in (a, a2, lobby, page):
        error = await client.error()
        assert error["code"] == "banned" and "banned" in error["message"]
        assert (await client.comm.receive_output(timeout=5)) == {"type": "websocket.close", "code": 4403}
        await client.close()  # the browser's half of the closing handshake
    # Bob stays, and sees Ann's seat disconnected.
    await b.wait_room(lambda r: r["seats"][0]["connected"] is False)
    refused = Client(code, ann_key)
    connected, _ = await refused.comm.connect()
    assert connected
    assert (await refused.error())["code"] == "banned"
    assert (await refused.comm.receive_output(timeout=5))["code"] == 4403
    await sync_to_async(player_unban)(player=await sync_to_async(Player.objects.get)(pk=ann.pk))
    back = await Client(code, ann_key).connect()
    assert back.room["you"]["seat"] == 1
    await back.close()
    await b.close()


@pytest.mark.django_db
def test_a_banned_player_cannot_create_rooms():
    device = HttpClient()
    device.get("/api/session")
    player_id = device.post("/api/session", {"name": "Ann"}, content_type="application/json").json()["player"]["id"]
    player_ban(player=Player.objects.get(pk=player_id), now=T0)
    response = device.post("/api/rooms", {}, content_type="application/json")
    assert response.status_code == 403
    assert response.json()["code"] == "banned"


@pytest.mark.django_db
def test_banning_twice_keeps_the_first_instant():
    table = make_table()
    assert player_ban(player=table.ann, now=at(1)) is True
    assert player_ban(player=table.ann, now=at(2)) is False
    assert Player.objects.get(pk=table.ann.pk).banned_at == at(1)
    assert player_unban(player=table.ann) is True
    assert player_unban(player=table.ann) is False


@pytest.mark.django_db
def test_games_left_playing_in_rooms_closed_before_the_upgrade_become_abandoned():
    # games.0003's data step, alone on today's tables (its other steps only name new choices): undoing the
    # migrations after it and applying them again took 5 s.
    ann = Player.objects.create(name="Ann", created_at=T0)
    rooms = {state: Room.objects.create(code=code, host=ann, created_at=T0, last_activity_at=T0, closed_at=closed)
             for state, code, closed in (("closed", "CLOSED", at(days=1)), ("open", "OPEN22", None))}
    games = {state: Game.objects.create(room=room, number=1, red_seat=1, red_player=ann, started_at=T0,
                                        turn_started_at=T0, due_at=T0)
             for state, room in rooms.items()}
    loader = MigrationLoader(connection)
    [step] = [op for op in loader.get_migration("games", "0003_abandoned").operations if isinstance(op, RunPython)]
    step.code(loader.project_state().apps, None)
    stuck, running = (Game.objects.get(pk=games[state].pk) for state in ("closed", "open"))
    assert (stuck.status, stuck.reason, stuck.finished_at, stuck.due_at) == ("abandoned", "idle", at(days=1), None)
    assert (running.status, running.finished_at, running.due_at) == ("playing", None, T0)
