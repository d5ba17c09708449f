"""Logging into an account on a device whose player is a guest hands that guest's unfinished rooms over
to the account (seat, colour in the game, host), or closes a room where the account already sits."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.utils import timezone

from games.models import Game, GameStatus
from games.postgame import post_games_run
from lobby.models import Room
from lobby.play.moves import game_start
from lobby.rooms.services import room_sit, room_stand
from players.accounts import guest_hand_over
from players.models import Player
from players.services import player_create
from ratings.models import RatingChange
from tests.ratings.ratingkit import RED_WINS, at
from tests.roomkit import Client as Socket
from tests.roomkit import make_player_async, make_room_async

PASSWORD = "four-in-a-row-3d!"


def device() -> Client:
    client = Client(enforce_csrf_checks=True)
    client.get("/api/session")
    return client


def post(client: Client, url: str, data: dict[str, object] | None = None):
    return client.post(url, data or {}, content_type="application/json",
                       HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)


def account(username: str = "ann") -> Player:
    """An account registered on some other device."""
    home = device()
    post(home, "/api/session", {"name": "Ann"})
    assert post(home, "/api/accounts/register", {"username": username, "password": PASSWORD}).status_code == 201
    return Player.objects.get(user__username=username)


def guest_of(client: Client, name: str) -> Player:
    return Player.objects.get(pk=post(client, "/api/session", {"name": name}).json()["player"]["id"])


def play(code: str, record: str, players: dict[int, Player], *, first_ply: int = 0) -> None:
    """Play ``record`` from ``first_ply`` on, each move by the player of the seat to move."""
    from lobby.play.moves import game_drop

    for ply, peg in enumerate(record.split()[first_ply:], start=first_ply):
        game = Game.objects.get(room__code=code, status=GameStatus.PLAYING)
        game_drop(code=code, player=players[game.to_move_seat], peg=peg, ply=ply, now=at(ply + 1))


@pytest.mark.django_db
def test_login_hands_the_guests_running_game_to_the_account_which_finishes_it_and_is_rated():
    ann = account()
    phone = device()
    phone_guest = guest_of(phone, "Phone guest")
    code = post(phone, "/api/rooms", {"ranked": True, "alternate_first": False}).json()["code"]
    bob = player_create(name="Bob", now=at())
    room_sit(code=code, player=bob, now=at())
    game_start(code=code, player=phone_guest, now=at())
    play(code, " ".join(RED_WINS.split()[:3]), {1: phone_guest, 2: bob})  # the guest is red, in seat 1

    assert post(phone, "/api/accounts/login", {"username": "ann", "password": PASSWORD}).status_code == 200

    assert phone.get("/api/session").json()["rooms"] == [{"code": code, "seat": 1, "playing": True}]
    room = Room.objects.get(code=code)
    assert room.host_id == ann.pk and room.seats.get(number=1).player_id == ann.pk
    game = Game.objects.get(room=room)
    assert (game.red_player_id, game.yellow_player_id) == (ann.pk, bob.pk)
    play(code, RED_WINS, {1: ann, 2: bob}, first_ply=3)
    post_games_run()  # the rating: the post-game work, once the end committed
    game.refresh_from_db()
    assert game.status == GameStatus.WON and game.winner_seat == 1
    assert set(RatingChange.objects.values_list("player_id", flat=True)) == {ann.pk, bob.pk}
    # The guest player remains, with nothing left in play.
    assert Player.objects.filter(pk=phone_guest.pk, user__isnull=True).exists()


@pytest.mark.django_db
def test_a_room_where_the_account_already_sits_is_closed_and_its_game_abandoned():
    ann = account()
    home_room = post(device(), "/api/rooms", {}).json()  # some other room, not touched
    phone = device()
    phone_guest = guest_of(phone, "Phone guest")
    code = post(phone, "/api/rooms", {}).json()["code"]
    room_sit(code=code, player=ann, now=at())
    game_start(code=code, player=phone_guest, now=at())
    assert post(phone, "/api/accounts/login", {"username": "ann", "password": PASSWORD}).status_code == 200
    assert Room.objects.get(code=code).closed_at is not None
    game = Game.objects.get(room__code=code)
    assert (game.status, game.reason) == (GameStatus.ABANDONED, "closed")
    assert Room.objects.get(code=home_room["code"]).closed_at is None
    assert phone.get("/api/session").json()["rooms"] == []


@pytest.mark.django_db
def test_a_room_the_guest_only_hosts_gets_the_account_as_host():
    ann = account()
    phone = device()
    phone_guest = guest_of(phone, "Phone guest")
    code = post(phone, "/api/rooms", {}).json()["code"]
    room_stand(code=code, player=phone_guest, now=at())
    assert post(phone, "/api/accounts/login", {"username": "ann", "password": PASSWORD}).status_code == 200
    room = Room.objects.get(code=code)
    assert room.host_id == ann.pk and room.closed_at is None
    assert not room.seats.filter(player__isnull=False).exists()


@pytest.mark.django_db
def test_switching_between_accounts_hands_nothing_over():
    ann, zoe = account("ann"), account("zoe")
    phone = device()
    assert post(phone, "/api/accounts/login", {"username": "ann", "password": PASSWORD}).status_code == 200
    code = post(phone, "/api/rooms", {}).json()["code"]
    assert post(phone, "/api/accounts/login", {"username": "zoe", "password": PASSWORD}).status_code == 200
    room = Room.objects.get(code=code)
    assert room.host_id == ann.pk and room.seats.get(number=1).player_id == ann.pk
    assert zoe.pk != ann.pk


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("runtime_cleanup")
async def test_the_guests_open_sockets_are_told_to_reconnect():
    guest, key = await make_player_async("Guest")
    code = await make_room_async(guest)
    socket = await Socket(code, key).connect()
    ann = await sync_to_async(player_create)(name="Ann", now=timezone.now())
    await sync_to_async(guest_hand_over)(guest=guest, account=ann, now=timezone.now())
    assert (await socket.error())["code"] == "player_changed"
    assert (await socket.comm.receive_output(timeout=5)) == {"type": "websocket.close", "code": 4409}
    await socket.close()
