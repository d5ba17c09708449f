"""The friends list in one process (SQLite + in-memory layer and cache): online while any page socket of
theirs is open (the player socket here), offline once the last closes; a follower tells the followed once."""

from __future__ import annotations

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.utils import timezone

from live.offload import offload
from lobby.realtime.loop import lobby_loop
from lobby.rooms.people import friends_of
from notifications.models import Notification
from players.identity import session_attach
from players.models import Player
from players.social import follow_add, follow_remove
from tests.arenakit import account
from tests.notifications.test_notifications import player_socket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("runtime_cleanup")]


@offload
def signed_in_device(player: Player) -> str:
    session = SessionStore()
    session_attach(session, player)
    session.save()
    assert session.session_key is not None
    return session.session_key


@offload
def online_friends(player: Player) -> list[bool]:
    return [friend["online"] for friend in friends_of(player, now=timezone.now())]


async def test_a_friend_is_online_while_a_page_of_theirs_is_open():
    ann, bob = await offload(account)("ann"), await offload(account)("bob")
    await offload(follow_add)(follower=ann, followed_id=bob.pk, now=timezone.now())
    assert await online_friends(ann) == [False]
    phone, laptop = await player_socket(await signed_in_device(bob)), await player_socket(await signed_in_device(bob))
    await lobby_loop().online.settle()
    assert await online_friends(ann) == [True]
    await phone.disconnect()
    await lobby_loop().online.settle()
    assert await online_friends(ann) == [True]  # the laptop's page is still open
    await laptop.disconnect()
    await lobby_loop().online.settle()
    assert await online_friends(ann) == [False]


@pytest.mark.django_db
def test_a_follower_tells_the_followed_once():
    ann, bob = account("ann"), account("bob")
    for _ in range(2):
        follow_add(follower=ann, followed_id=bob.pk, now=timezone.now())
    [told] = Notification.objects.filter(player=bob)
    assert (told.kind, told.text, told.url) == ("followed", "Ann follows you.", f"/players/{ann.pk}")
    assert told.data["player"]["id"] == str(ann.pk)
    follow_remove(follower=ann, followed_id=bob.pk)
    follow_add(follower=ann, followed_id=bob.pk, now=timezone.now())  # following again: not told again
    assert Notification.objects.filter(player=bob).count() == 1
