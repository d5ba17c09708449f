"""Your data: the export holds the player's games, chat and puzzle attempts (and the rest); closing the
account erases what is personal, keeps the games for the opponents under "deleted player", takes the
rating off the leaderboard, and ends the export with the sessions."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth.models import User
from django.utils import timezone

from accounts.deletion import DELETED_NAME, NAME_HELD_DAYS, names_free
from lobby.chat.services import chat_say
from lobby.rooms.services import room_create, room_sit
from players.models import AccessToken, Block, Follow, Player
from players.services import player_create
from players.tokens import token_create
from puzzles.models import PuzzleAttempt
from tests.accounts.accountkit import PASSWORD, account, confirmed_account, device, post
from tests.puzzles.puzzlekit import pool_puzzle, solver_line
from tests.ratings.ratingkit import RED_WINS, Table, play_game

pytestmark = pytest.mark.django_db


def export(client) -> tuple[int, dict]:
    response = client.get("/api/accounts/me/export")
    if not response.streaming:
        return response.status_code, response.json()
    assert response["Content-Disposition"].startswith("attachment;")

    async def read() -> bytes:
        return b"".join([chunk async for chunk in response.streaming_content])

    return response.status_code, json.loads(async_to_sync(read)())


@pytest.fixture
def ann_played():
    """Ann (an account with a confirmed address, a token) beat Bob in a ranked game, chatted, solved a puzzle."""
    client = confirmed_account("Ann", "ann@example.com")
    ann = Player.objects.get(user__username="Ann")
    bob = player_create(name="Bob", now=timezone.now())
    code = room_create(host=ann, rules={"ranked": True}, now=timezone.now()).code
    room_sit(code=code, player=bob, now=timezone.now())
    game = play_game(Table(code=code, ann=ann, bob=bob), RED_WINS, now=timezone.now() - timedelta(minutes=5))
    chat_say(code=code, player=ann, chat="players", text="good game!", now=timezone.now())
    puzzle = pool_puzzle(3)
    assert post(client, f"/api/puzzles/{puzzle.pk}/move", {"moves": solver_line(puzzle)}).status_code == 200
    token_create(player=ann, description="my engine", now=timezone.now())
    Follow.objects.create(follower=ann, followed=bob, created_at=timezone.now())
    Block.objects.create(blocker=bob, blocked=ann, created_at=timezone.now())
    return client, ann, bob, game


# Committed rows: the export reads its pages in the database lane, whose wrapper closes a connection left
# in a transaction (the test's own would be).
@pytest.mark.django_db(transaction=True)
def test_the_export_holds_the_players_games_chat_and_puzzles(ann_played):
    client, ann, bob, game = ann_played
    status, data = export(client)
    assert status == 200
    assert data["account"]["username"] == "Ann" and data["account"]["email"] == "ann@example.com"
    assert data["account"]["rating"]["rating"] > 1500
    assert [g["id"] for g in data["games"]] == [str(game.pk)] and data["games"][0]["record"] == RED_WINS
    assert {g["red_player__name"] for g in data["games"]} | {g["yellow_player__name"] for g in data["games"]} == {
        "Ann", "Bob"}
    assert [m["text"] for m in data["chat_messages"]] == ["good game!"]
    assert data["puzzle_attempts"][0]["solved"] is True
    assert len(data["rating_history"]) == 1
    assert data["access_tokens"] == [{"description": "my engine", "created_at": data["access_tokens"][0]["created_at"],
                                      "last_used_at": None, "revoked_at": None}]
    assert data["following"] == [{"followed_id": str(bob.pk), "followed__name": "Bob",
                                  "created_at": data["following"][0]["created_at"]}]
    assert {"challenges", "blocks", "reports_made", "notifications"} <= set(data)
    assert "digest" not in json.dumps(data)
    assert export(device())[0] == 403  # a guest (or nobody) has no export


def test_closing_the_account_keeps_the_games_under_deleted_player(ann_played):
    client, ann, bob, game = ann_played
    other_device = device()
    post(other_device, "/api/accounts/login", {"username": "Ann", "password": PASSWORD})
    wrong = post(client, "/api/accounts/me", {"password": "not it"}, method="delete")
    assert wrong.status_code == 401 and wrong.json()["code"] == "bad_credentials"
    assert post(client, "/api/accounts/me", {"password": PASSWORD}, method="delete").status_code == 204
    # The opponent's replay still works, under the new name.
    replay = device().get(f"/api/games/{game.pk}")
    assert replay.status_code == 200
    players = replay.json()["players"]
    assert {players["red"]["player"]["name"], players["yellow"]["player"]["name"]} == {DELETED_NAME, "Bob"}
    assert len(replay.json()["moves"]) == len(RED_WINS.split())
    # Every session ended: the export is gone, on this device and the other.
    for each in (client, other_device):
        assert export(each) == (403, {"code": "no_account", "message": "Sign in to an account first."})
    assert post(device(), "/api/accounts/login", {"username": "Ann", "password": PASSWORD}).status_code == 401
    ann.refresh_from_db()
    assert ann.name == DELETED_NAME and ann.user.email == "" and not ann.user.has_usable_password()
    assert not ann.chat_messages.exists() and not hasattr(Player.objects.get(pk=ann.pk), "account_email")
    assert AccessToken.objects.get(player=ann).revoked_at is not None
    assert not Follow.objects.exists() and not Block.objects.exists()
    assert PuzzleAttempt.objects.filter(player=ann).exists()  # the puzzles' statistics keep the attempt
    leaders = device().get("/api/ratings", {"include_provisional": "true"}).json()["results"]
    assert [row["player"]["name"] for row in leaders] == ["Bob"]


def test_the_name_is_freed_thirty_days_later():
    client = account("Ann")
    post(client, "/api/accounts/me", {"password": PASSWORD}, method="delete")
    taken = post(device(), "/api/accounts/register", {"username": "ann", "password": PASSWORD})
    assert taken.status_code == 409 and taken.json()["code"] == "name_taken"
    assert names_free(now=timezone.now() + timedelta(days=NAME_HELD_DAYS - 1)) == 0
    assert names_free(now=timezone.now() + timedelta(days=NAME_HELD_DAYS)) == 1
    assert not User.objects.filter(username="Ann").exists()
    assert post(device(), "/api/accounts/register", {"username": "ann", "password": PASSWORD}).status_code == 201


def test_the_close_page_asks_for_the_password_and_a_confirmation():
    client = account("Ann")
    page = client.get("/accounts/delete")
    assert page.status_code == 200 and b"Close your account" in page.content
    token = client.cookies["csrftoken"].value
    unsure = client.post("/accounts/delete", {"password": PASSWORD, "csrfmiddlewaretoken": token})
    assert unsure.status_code == 200 and Player.objects.get(user__username="Ann").name == "Ann"
    done = client.post("/accounts/delete", {"password": PASSWORD, "sure": "on", "csrfmiddlewaretoken": token})
    assert done.status_code == 200 and b"Account closed" in done.content
    assert Player.objects.filter(name=DELETED_NAME).count() == 1


def test_closing_the_account_closes_its_open_sockets(django_capture_on_commit_callbacks):
    from lobby.events import player_group
    from tests.layerkit import GroupListener

    client = account("Ann")
    listener = GroupListener(player_group(Player.objects.get(name="Ann").pk))  # every socket of Ann's pages
    try:
        with django_capture_on_commit_callbacks(execute=True):
            assert post(client, "/api/accounts/me", {"password": PASSWORD}, method="delete").status_code == 204
        ended = listener.receive()
    finally:
        listener.close()
    assert ended["type"] == "player.end" and ended["close"] == 4409 and ended["error"]["code"] == "player_changed"
