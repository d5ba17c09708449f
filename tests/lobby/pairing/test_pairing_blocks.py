"""Quick pairing never pairs two players one of whom blocked the other: a wave of three seekers."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from lobby.models import Room
from lobby.pairing.matching import Pool, Seeker, can_pair, pair_seekers
from lobby.pairing.seeks import SEEK_WAVE, seek_enter
from players.social import block_add
from ratings.models import PlayerRating
from tests.arenakit import account

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
CASUAL = Pool(turn_seconds=None, ranked=False)


def seeking(name: str, rating: float):
    player = account(name, now=T0)
    PlayerRating.objects.create(player=player, rating=rating, rd=60, games=10)
    seek_enter(player=player, channel_name=f"chan-{name}", pool=CASUAL, now=T0)
    return player


def test_a_wave_of_three_pairs_the_two_who_did_not_block_each_other():
    ann, mal, cyd = seeking("ann", 1500), seeking("mal", 1505), seeking("cyd", 1580)
    block_add(blocker=ann, blocked_id=mal.pk, now=T0)  # else Ann and Mal (5 points apart) would meet
    now = T0 + timedelta(seconds=1)
    waiting = SEEK_WAVE.read(now=now)
    assert {s.player_id: s.apart for s in waiting}[str(mal.pk)] == frozenset({str(ann.pk)})
    made = SEEK_WAVE.write(SEEK_WAVE.pair(waiting, now=now), now=now)
    [pairing] = made
    seated = set(Room.objects.get(code=pairing.code).seats.values_list("player_id", flat=True))
    assert seated == {mal.pk, cyd.pk}


def test_two_kept_apart_are_never_paired_even_alone():
    a = Seeker(1, "a", 1500, T0, CASUAL, apart=frozenset({"b"}))
    b = Seeker(2, "b", 1500, T0, CASUAL)
    later = T0 + timedelta(minutes=5)  # both accept anyone by now
    assert not can_pair(a, b, now=later) and not can_pair(b, a, now=later)
    assert pair_seekers([a, b], now=later) == []


def test_a_block_made_after_the_wave_read_the_pool_drops_the_pair():
    ann, mal = seeking("ann", 1500), seeking("mal", 1505)
    now = T0 + timedelta(seconds=1)
    pairs = SEEK_WAVE.pair(SEEK_WAVE.read(now=now), now=now)
    assert len(pairs) == 1
    block_add(blocker=mal, blocked_id=ann.pk, now=now)
    assert SEEK_WAVE.write(pairs, now=now) == []
    assert not Room.objects.exists()
