"""The seek pool in the database: one seek per player, waves claimed once, pairs written atomically."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from games.models import GameStatus
from lobby.models import Room, Seek
from lobby.pairing.matching import Pool, pair_seekers
from lobby.pairing.seeks import (
    SEEK_EXPIRY,
    SEEK_WAVE,
    CancelOutcome,
    seek_cancel,
    seek_enter,
    seek_leave,
    seek_replaced,
    seeks_keep_alive,
    wave_pair,
)
from lobby.pairing.waves import WAVE_LEASE, wave_claim, wave_end
from lobby.rooms.selectors import current_game
from players.services import player_create
from ratings.models import PlayerRating

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
CASUAL = Pool(turn_seconds=None, ranked=False)
RANKED_60 = Pool(turn_seconds=60, ranked=True)


def person(name, rating=None):
    player = player_create(name=name, now=T0)
    if rating is not None:
        PlayerRating.objects.create(player=player, rating=rating, rd=60, games=10)
    return player


def seeking(name, *, rating=None, pool=CASUAL, at=T0):
    player = person(name, rating)
    return player, seek_enter(player=player, channel_name=f"chan-{name}", pool=pool, now=at)


def test_a_seek_records_the_rating_and_the_pool():
    ann, seeker = seeking("Ann", rating=1712.5, pool=RANKED_60)
    row = Seek.objects.get(player=ann)
    assert (row.rating, row.turn_seconds, row.ranked, row.since, row.room_code) == (1712.5, 60, True, T0, None)
    assert (seeker.seek_id, seeker.rating, seeker.pool) == (row.pk, 1712.5, RANKED_60)
    _, new = seeking("Bob")
    assert new.rating == 1500.0  # never rated: the default rating


def test_another_tab_replaces_the_first_seek(django_capture_on_commit_callbacks):
    ann, first = seeking("Ann")
    with django_capture_on_commit_callbacks() as callbacks:
        second = seek_enter(player=ann, channel_name="chan-Ann-tab2", pool=RANKED_60, now=T0 + timedelta(seconds=3))
    assert list(Seek.objects.values_list("channel_name", flat=True)) == ["chan-Ann-tab2"]
    assert second.seek_id != first.seek_id and second.since == T0 + timedelta(seconds=3)
    assert len(callbacks) == 1  # the first tab is told it was replaced
    assert seek_replaced(seek_id=first.seek_id, player=ann)
    assert not seek_replaced(seek_id=second.seek_id, player=ann)


def claim(now):
    return wave_claim(SEEK_WAVE.lease(now=now), now=now)


def end():
    wave_end(SEEK_WAVE.lease(now=T0))


def test_a_wave_is_claimed_once_per_period_and_never_while_one_runs():
    assert claim(T0)
    assert not claim(T0)
    assert not claim(T0 + timedelta(seconds=2))  # due, but the first wave is still being written
    end()
    assert not claim(T0 + timedelta(seconds=1))  # not due yet
    assert claim(T0 + timedelta(seconds=2))
    # The process running it died: its claim lapses and another process takes over.
    assert not claim(T0 + timedelta(seconds=2) + WAVE_LEASE)
    assert claim(T0 + timedelta(seconds=3) + WAVE_LEASE)


def test_a_wave_reads_only_live_waiting_seeks_and_sweeps_the_rest(settings):
    settings.SEEK_MAX_WAIT_SECONDS = 60
    _, alive = seeking("Ann")
    _, silent = seeking("Bob")
    _, patient = seeking("Cy", at=T0 - timedelta(seconds=50))
    _, bored = seeking("Di", at=T0 - timedelta(seconds=56))
    later = T0 + SEEK_EXPIRY + timedelta(seconds=1)
    statuses = seeks_keep_alive(alive=["chan-Ann", "chan-Cy", "chan-Di"], watched=["chan-Ann", "chan-Bob"], now=later)
    assert set(statuses) == {"chan-Ann", "chan-Bob"} and statuses["chan-Ann"].seek_id == alive.seek_id
    assert claim(later)
    seekers = SEEK_WAVE.read(now=later)
    assert [s.seek_id for s in seekers] == [alive.seek_id, patient.seek_id]
    # Bob's page went silent (or his process died): his seek is gone. Di waited too long.
    assert not Seek.objects.filter(pk__in=[silent.seek_id, bored.seek_id]).exists()
    end()
    assert not claim(later + timedelta(seconds=1))  # the next wave is not due yet


def test_a_pair_becomes_a_room_with_both_seated_and_the_first_game_started():
    ann, a = seeking("Ann", rating=1500, pool=RANKED_60)
    bob, b = seeking("Bob", rating=1580, pool=RANKED_60)
    pairs = pair_seekers([a, b], now=T0)
    made = wave_pair(pairs=pairs, now=T0)
    assert len(made) == 1
    code = made[0].code
    room = Room.objects.get(code=code)
    assert (room.turn_seconds, room.ranked, room.alternate_first, room.open) == (60, True, True, False)
    seated = dict(room.seats.values_list("number", "player_id"))
    assert set(seated.values()) == {ann.pk, bob.pk}
    assert room.host_id == seated[1]  # the first seat hosts and plays Red
    game = current_game(room)
    assert game is not None and game.status == GameStatus.PLAYING and game.red_seat == 1 and game.ranked
    assert game.turn_seconds == 60
    assert set(Seek.objects.values_list("room_code", flat=True)) == {code}


def test_a_seeker_who_left_before_the_pairing_was_written_is_not_paired():
    _, a = seeking("Ann")
    _, b = seeking("Bob")
    _, c = seeking("Cy")
    pairs = pair_seekers([a, b], now=T0)
    assert seek_cancel(seek_id=b.seek_id).outcome is CancelOutcome.CANCELLED
    assert wave_pair(pairs=pairs, now=T0) == []
    assert not Room.objects.exists()
    # Ann waits on, and pairs with Cy in the next wave.
    made = wave_pair(pairs=pair_seekers([a, c], now=T0), now=T0 + timedelta(seconds=1))
    assert len(made) == 1 and set(made[0].seek_ids) == {a.seek_id, c.seek_id}


def test_a_closed_socket_or_an_expired_seek_is_not_paired():
    _, a = seeking("Ann")
    _, b = seeking("Bob")
    _, c = seeking("Cy")
    seek_leave(channel_name="chan-Bob")
    assert wave_pair(pairs=[(a, b)], now=T0) == []
    expired = T0 + SEEK_EXPIRY + timedelta(seconds=1)
    assert wave_pair(pairs=[(a, c)], now=expired) == []  # nobody kept them alive
    assert not Room.objects.exists()


def test_nobody_is_paired_twice_even_by_two_waves():
    _, a = seeking("Ann")
    _, b = seeking("Bob")
    _, c = seeking("Cy")
    assert len(wave_pair(pairs=[(a, b)], now=T0)) == 1
    assert wave_pair(pairs=[(a, c)], now=T0) == []  # a second wave that read Ann before the first wrote
    assert Room.objects.count() == 1


def test_cancelling_after_the_pairing_says_where_it_was_paired():
    _, a = seeking("Ann")
    _, b = seeking("Bob")
    code = wave_pair(pairs=[(a, b)], now=T0)[0].code
    result = seek_cancel(seek_id=a.seek_id)
    assert (result.outcome, result.room_code) == (CancelOutcome.PAIRED, code)
    seek_leave(channel_name="chan-Ann")
    assert seek_cancel(seek_id=a.seek_id).outcome is CancelOutcome.GONE


def test_a_banned_pair_in_a_wave_is_dropped_alone_and_its_seeks_end(django_capture_on_commit_callbacks):
    from players.services import player_ban

    ann, a = seeking("Ann")
    bob, b = seeking("Bob")
    _, c = seeking("Cy")
    _, d = seeking("Di")
    for player in (ann, bob):  # both of the first pair: whichever the coin makes Red, the room refuses them
        player_ban(player=player, now=T0)
    with django_capture_on_commit_callbacks(execute=False):
        made = wave_pair(pairs=[(a, b), (c, d)], now=T0)
    # The wave goes on past the refused pair: the pair after it is written.
    assert len(made) == 1 and set(made[0].seek_ids) == {c.seek_id, d.seek_id}
    assert not Seek.objects.filter(pk__in=[a.seek_id, b.seek_id]).exists()  # the banned seeks ended
