"""An arena about to start: each player who joined (and did not withdraw) is notified once, five minutes
before, however often and by however many processes the sweep runs."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from notifications.models import Notification
from tests.arenakit import arena, guest
from tournaments.services import arena_join, arena_withdraw, arenas_starting_notify, arenas_sweep

pytestmark = pytest.mark.django_db


def test_the_players_of_an_arena_are_told_once_five_minutes_before_it_starts():
    now = timezone.now()
    evening = arena(starts_at=now + timedelta(minutes=10))
    ann, bob, eve = guest("ann"), guest("bob"), guest("eve")
    for player in (ann, bob, eve):
        arena_join(arena_id=evening.pk, player=player, now=now)
    arena_withdraw(arena_id=evening.pk, player=eve, now=now)
    assert arenas_starting_notify(now=now + timedelta(minutes=4, seconds=59)) == 0  # not yet
    later = now + timedelta(minutes=5, seconds=30)
    arenas_sweep(now=later)  # the arena loop's sweep tells them
    assert arenas_starting_notify(now=later + timedelta(seconds=1)) == 0  # once
    rows = Notification.objects.filter(kind="arena_starting").order_by("player__name")
    assert [(n.player_id, n.text, n.url) for n in rows] == [
        (ann.pk, "Evening arena starts in 5 minutes.", f"/tournaments/{evening.pk}"),
        (bob.pk, "Evening arena starts in 5 minutes.", f"/tournaments/{evening.pk}"),
    ]
    assert rows[0].data == {"tournament": {"id": evening.pk, "name": "Evening arena",
                                           "starts_at": rows[0].data["tournament"]["starts_at"]}, "minutes": 5}


def test_an_arena_starting_now_is_not_announced():
    now = timezone.now()
    at_once = arena()
    arena_join(arena_id=at_once.pk, player=guest("ann"), now=now)
    assert arenas_starting_notify(now=now) == 0
    assert not Notification.objects.exists()
