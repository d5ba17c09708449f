"""Racing writes on PostgreSQL: real concurrent transactions, exactly one wins."""

from __future__ import annotations

import pytest
from django.utils import timezone

from games.models import Move
from lobby.play import game_drop, game_start
from lobby.services import room_create, room_sit
from players.services import player_create
from tests.racekit import race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("round_", range(5))
def test_two_drops_for_the_same_ply_exactly_one_is_accepted(round_):
    now = timezone.now()
    ann, bob = player_create(name="Ann", now=now), player_create(name="Bob", now=now)
    code = room_create(host=ann, rules={}, now=now).code
    room_sit(code=code, player=bob, now=now)
    game = game_start(code=code, player=ann, now=now)
    outcomes = race(
        lambda: game_drop(code=code, player=ann, peg="a1", ply=0, now=timezone.now()),
        lambda: game_drop(code=code, player=ann, peg="b2", ply=0, now=timezone.now()),
    )
    assert sorted(map(str, outcomes)).count("stale") == 1, outcomes
    assert Move.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert game.ply == 1
