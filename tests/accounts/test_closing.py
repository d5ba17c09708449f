"""A closed account is gone at once, everywhere (``players.services.PLAYER_ENDED``, every app's handler): not
shown or found, its seeks, challenges and arena entries withdrawn, nobody follows, challenges, notifies or
pairs it, and its sockets and bot streams end. In-process, on the channel layer of the test settings; the
pages' sockets on two processes are ``tests/integration``'s."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.utils import timezone

from bots.challenges import challenge_accept, challenge_create
from bots.models import Challenge, ChallengeStatus
from bots.protocol import account_group
from common.errors import Refused
from correspondence.models import CorrespondenceSeek
from lobby.events import player_group
from lobby.models import Room, Seek
from lobby.pairing.matching import Pool
from lobby.pairing.seeks import seek_enter, seek_pair_write
from notifications.models import Notification
from notifications.services import notify
from players.models import Player
from tests.accounts.accountkit import PASSWORD, account, device, post
from tests.arenakit import arena, run_wave
from tests.layerkit import GroupListener
from tournaments.models import ArenaPlayer
from tournaments.pairing import Pair, Waiting
from tournaments.services import arena_join
from tournaments.waves import arena_pairs_write

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_quotas_left_over():
    cache.clear()


def close(client) -> None:
    assert post(client, "/api/accounts/me", {"password": PASSWORD}, method="delete").status_code == 204


def player(username: str) -> Player:
    return Player.objects.get(user__username=username)


def test_its_page_shows_no_username_and_the_search_finds_it_not():
    ann = account("Annabel")
    ann_id = player("Annabel").pk
    assert device().get("/api/players", {"q": "annab"}).json()[0]["id"] == str(ann_id)
    close(ann)
    page = device().get(f"/api/players/{ann_id}").json()
    assert page["username"] is None and page["account"] is False and page["name"] == "deleted player"
    assert device().get("/api/players", {"q": "annab"}).json() == []


def test_its_correspondence_seek_is_withdrawn_and_accepting_it_is_refused():
    ann, bob = account("Ann"), account("Bob")
    made = post(ann, "/api/seeks", {"days_per_move": 3, "ranked": False})
    assert made.status_code == 201
    close(ann)
    assert not CorrespondenceSeek.objects.exists()
    taken = post(bob, f"/api/seeks/{made.json()['id']}/accept")
    assert (taken.status_code, taken.json()["code"]) == (404, "no_seek") and not Room.objects.exists()


def test_its_waiting_challenges_end_both_ways():
    ann_client = account("Ann")
    account("Bob"), account("Carl")
    ann, bob, carl = player("Ann"), player("Bob"), player("Carl")
    now = timezone.now()
    sent = challenge_create(challenger=ann, username="Bob", now=now)
    received = challenge_create(challenger=carl, username="Ann", now=now)
    close(ann_client)
    with pytest.raises(Refused) as refused:
        challenge_accept(challenge_id=sent.pk, player=bob, now=timezone.now())
    assert refused.value.code == "challenge_over" and not Room.objects.exists()
    assert Challenge.objects.get(pk=sent.pk).status == ChallengeStatus.CANCELED
    assert Challenge.objects.get(pk=received.pk).status == ChallengeStatus.DECLINED


def test_nobody_follows_challenges_or_notifies_it():
    ann_client, bob_client = account("Ann"), account("Bob")
    ann = player("Ann")
    close(ann_client)
    followed = post(bob_client, f"/api/players/{ann.pk}/follow")
    assert (followed.status_code, followed.json()["code"]) == (404, "no_player")
    challenged = post(bob_client, "/api/challenge/Ann", {"turn_seconds": 60})
    assert (challenged.status_code, challenged.json()["code"]) == (404, "no_player")
    told = notify(player_id=ann.pk, kind="followed", data={"player": {"id": str(player("Bob").pk), "name": "Bob"}},
                  now=timezone.now())
    assert told is None
    assert not Notification.objects.filter(player=ann).exists()


def test_its_quick_seek_ends_and_a_seek_it_makes_after_is_never_paired():
    ann_client = account("Ann")
    account("Bob")
    ann, bob = player("Ann"), player("Bob")
    now, pool = timezone.now(), Pool(turn_seconds=None, ranked=False)
    seek_enter(player=ann, channel_name="ann-lobby", pool=pool, now=now)
    bobs = seek_enter(player=bob, channel_name="bob-lobby", pool=pool, now=now)
    close(ann_client)
    assert list(Seek.objects.values_list("player_id", flat=True)) == [bob.pk]
    # Its lobby socket sought again before the close reached it: that seek is ended by the pairing, unpaired.
    late = seek_enter(player=Player.objects.get(pk=ann.pk), channel_name="ann-lobby", pool=pool, now=now)
    assert seek_pair_write(pair=(late, bobs), now=now) is None
    assert not Room.objects.exists() and list(Seek.objects.values_list("player_id", flat=True)) == [bob.pk]


def test_in_an_arena_it_is_withdrawn_and_never_paired():
    ann_client = account("Ann")
    for name in ("Bob", "Carl"):
        account(name)
    the_arena = arena()
    for name in ("Ann", "Bob", "Carl"):
        arena_join(arena_id=the_arena.pk, player=player(name), now=timezone.now())
    ann, bob = player("Ann"), player("Bob")
    close(ann_client)
    assert not ArenaPlayer.objects.filter(player=ann, withdrawn=False).exists()
    # A wave that read the pool before the close: its pair with the closed account is not written.
    read_before = Pair(red=Waiting(str(ann.pk), 1, 1500.0), yellow=Waiting(str(bob.pk), 2, 1500.0))
    assert arena_pairs_write(arena_id=the_arena.pk, pairs=[read_before], now=timezone.now()) == []
    assert len(run_wave(the_arena.pk)) == 1  # Bob and Carl
    assert not Room.objects.filter(seats__player=ann).exists()


def test_its_sockets_and_bot_streams_end_on_every_process(django_capture_on_commit_callbacks):
    ann_client = account("Ann")
    ann = player("Ann")
    pages, streams = GroupListener(player_group(ann.pk)), GroupListener(account_group(ann.pk))
    try:
        with django_capture_on_commit_callbacks(execute=True):
            close(ann_client)
        page_end, stream_end = pages.receive(), streams.receive()
    finally:
        pages.close()
        streams.close()
    assert (page_end["type"], page_end["close"], page_end["error"]["code"]) == ("player.end", 4409, "player_changed")
    assert (stream_end["type"], stream_end.get("token"), stream_end["reason"]) == ("account.streams_end", None,
                                                                                   "closed")
