"""A closed account's games being played are resigned at once (issue 47), through the one resign path: a live
game no longer falls to the computer's stand-in after the grace period, a correspondence game is no longer
lost on time days later. The opponents' rooms are told as of any resignation (the room's group, the channel
layer every process listens on), and the correspondence opponent gets its ``game_over``."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.utils import timezone

from games.models import EndReason, Game, GameStatus
from lobby.events import room_group
from lobby.play.moves import game_start
from lobby.rooms.services import room_create, room_sit
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
        live, mail, bobs_own = (Game.objects.get(pk=g.pk) for g in (live, mail, bobs_own))
        assert (live.status, live.reason, live.winner_seat) == (GameStatus.RESIGNED, EndReason.RESIGNATION, 1)
        assert (mail.status, mail.reason, mail.winner_seat) == (GameStatus.RESIGNED, EndReason.RESIGNATION, 2)
        assert bobs_own.status == GameStatus.PLAYING
        assert Notification.objects.filter(player=cy, kind="game_over").count() == 1
        told = snapshot_where(room, lambda s: s["game"] and s["game"]["status"] == GameStatus.RESIGNED)
    finally:
        room.close()
    assert told["game"]["winner_seat"] == 1 and told["game"]["reason"] == EndReason.RESIGNATION
