"""A closed account's games being played are resigned at once (issue 47), through the one resign path: a live
game no longer falls to the computer's stand-in after the grace period, a correspondence game is no longer
lost on time days later. The opponents' rooms are told as of any resignation (the room's group, the channel
layer every process listens on), and the correspondence opponent gets its ``game_over``."""

from __future__ import annotations

import threading
import time

import pytest
from django.core.cache import cache
from django.db import connection, transaction
from django.utils import timezone

from games.models import EndReason, Game, GameStatus
from games.postgame import post_games_run
from lobby.events import room_group
from lobby.play.moves import game_start
from lobby.rooms.services import lock_joins_of, room_create, room_lock, room_sit
from notifications.models import Notification
from players.models import Player
from tests.accounts.accountkit import PASSWORD, account, post
from tests.layerkit import GroupListener

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_quotas_left_over():
    cache.clear()


def player(username: str) -> Player:
    return Player.objects.get(user__username=username)


def game_between(host: Player, guest: Player, **rules) -> tuple[str, Game]:
    now = timezone.now()
    room = room_create(host=host, rules=rules, now=now)
    room_sit(code=room.code, player=guest, now=now)
    return room.code, game_start(code=room.code, player=host, now=now)


def snapshot_where(listener: GroupListener, predicate) -> dict:
    """The first room snapshot the group hears that satisfies ``predicate`` (others come too: the rename)."""
    while True:
        message = listener.receive()
        if message["type"] == "room.snapshot" and predicate(message["snapshot"]):
            return message["snapshot"]


def test_closing_resigns_its_live_and_correspondence_games_and_the_opponents_are_told(
        django_capture_on_commit_callbacks):
    ann_client = account("Ann")
    account("Bob"), account("Cyd")
    ann, bob, cy = player("Ann"), player("Bob"), player("Cyd")
    live_code, live = game_between(bob, ann, turn_seconds=30)  # Ann is Yellow here, Red below
    _, mail = game_between(ann, cy, days_per_move=3)
    _, bobs_own = game_between(bob, cy, turn_seconds=30)  # not Ann's: goes on
    room = GroupListener(room_group(live_code))
    try:
        with django_capture_on_commit_callbacks(execute=True):
            assert post(ann_client, "/api/accounts/me", {"password": PASSWORD}, method="delete").status_code == 204
        with django_capture_on_commit_callbacks(execute=True):  # game_over: once the post-game work commits
            post_games_run()
        live, mail, bobs_own = (Game.objects.get(pk=g.pk) for g in (live, mail, bobs_own))
        assert (live.status, live.reason, live.winner_seat) == (GameStatus.RESIGNED, EndReason.RESIGNATION, 1)
        assert (mail.status, mail.reason, mail.winner_seat) == (GameStatus.RESIGNED, EndReason.RESIGNATION, 2)
        assert bobs_own.status == GameStatus.PLAYING
        assert Notification.objects.filter(player=cy, kind="game_over").count() == 1
        told = snapshot_where(room, lambda s: s["game"] and s["game"]["status"] == GameStatus.RESIGNED)
    finally:
        room.close()
    assert told["game"]["winner_seat"] == 1 and told["game"]["reason"] == EndReason.RESIGNATION


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_closing_and_a_seat_change_of_the_same_account_take_turns_instead_of_deadlocking():
    """A change of a room that seats the account (its room's lock, then the account's row: a seat taken)
    running while the account closes: the closing waits for the room and then goes on; it must not hold the
    account's row while it waits (PostgreSQL would break the deadlock by failing one of the two)."""
    ann_client = account("Ann")
    account("Bob")
    ann, bob = player("Ann"), player("Bob")
    code, live = game_between(bob, ann, turn_seconds=30)
    room_locked, outcome = threading.Event(), []

    def seat_change() -> None:
        try:
            with transaction.atomic():
                room_lock(code)
                room_locked.set()
                deadline = time.monotonic() + 10
                while not _a_lock_waits() and time.monotonic() < deadline:  # the closing, queued behind us
                    time.sleep(0.01)
                lock_joins_of(ann)
            outcome.append("committed")
        except Exception as exc:  # a deadlock PostgreSQL broke
            outcome.append(repr(exc))
        finally:
            connection.close()

    changer = threading.Thread(target=seat_change)
    changer.start()
    assert room_locked.wait(10)
    closed = post(ann_client, "/api/accounts/me", {"password": PASSWORD}, method="delete")
    changer.join(15)
    assert (closed.status_code, outcome) == (204, ["committed"])
    assert Game.objects.get(pk=live.pk).status == GameStatus.RESIGNED


def _a_lock_waits() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE NOT granted")
        return bool(cursor.fetchone()[0])
