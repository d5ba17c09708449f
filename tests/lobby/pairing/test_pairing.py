"""The pure pairing logic: ranges that widen with waiting, waves, minimal total gap, no self-pairing."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lobby.pairing.matching import (
    DEFAULT_POLICY,
    Pool,
    RangePolicy,
    RatingRange,
    Seeker,
    can_pair,
    pair_seekers,
    rating_range,
)

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
CASUAL = Pool(turn_seconds=None, ranked=False)
RANKED_30 = Pool(turn_seconds=30, ranked=True)


def seeker(seek_id, rating, *, waited=0.0, player=None, pool=CASUAL):
    return Seeker(
        seek_id=seek_id,
        player_id=player or f"p{seek_id}",
        rating=float(rating),
        since=NOW - timedelta(seconds=waited),
        pool=pool,
    )


def ids(pairs):
    return sorted(tuple(sorted((a.seek_id, b.seek_id))) for a, b in pairs)


# --- ranges ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("waited", "half_width"),
    [(0, 100), (7.4, 100), (7.5, 200), (15, 300), (22.5, 400), (29.9, 400), (30, 500), (44.9, 500), (45, math.inf)],
)
def test_the_range_widens_in_steps_to_500_then_anyone(waited, half_width):
    assert DEFAULT_POLICY.half_width(waited) == half_width


def test_a_clock_running_behind_the_seek_counts_as_no_wait():
    assert DEFAULT_POLICY.half_width(-3) == 100


def test_rating_range_around_the_rating_and_open_for_anyone():
    assert rating_range(seeker(1, 1520.4), now=NOW) == RatingRange(1420.4, 1620.4)
    assert rating_range(seeker(1, 1520.4), now=NOW).rounded() == (1420, 1620)
    assert rating_range(seeker(1, 1520.4, waited=50), now=NOW) == RatingRange(None, None)
    assert rating_range(seeker(1, 1520.4, waited=50), now=NOW).rounded() == (None, None)


def test_a_policy_can_be_narrower():
    policy = RangePolicy(start=50, step=25, step_seconds=10, widest=100, anyone_after_seconds=60)
    assert [policy.half_width(t) for t in (0, 10, 20, 30, 59, 60)] == [50, 75, 100, 100, 100, math.inf]


# --- who may be paired -------------------------------------------------------------------------------
def test_both_must_accept_the_gap_the_narrower_range_decides():
    old, new = seeker(1, 1500, waited=31), seeker(2, 1750)
    assert not can_pair(old, new, now=NOW)  # 250 is within the old seeker's ±500 but not the newcomer's ±100
    assert can_pair(old, new, now=NOW + timedelta(seconds=15))  # the newcomer is at ±300 by then
    assert can_pair(seeker(1, 1500), seeker(2, 1600), now=NOW)  # exactly at the edge: included
    assert not can_pair(seeker(1, 1500), seeker(2, 1600.01), now=NOW)


def test_only_the_same_pool_and_never_the_same_player():
    assert not can_pair(seeker(1, 1500), seeker(2, 1500, pool=RANKED_30), now=NOW)
    assert not can_pair(seeker(1, 1500), seeker(2, 1500, player="p1"), now=NOW)
    assert not can_pair(seeker(1, 1500), seeker(1, 1500, player="other"), now=NOW)


# --- waves -------------------------------------------------------------------------------------------
def test_a_wave_pairs_the_closest_ratings():
    pairs = pair_seekers([seeker(1, 1500), seeker(2, 1590), seeker(3, 1510), seeker(4, 1580)], now=NOW)
    assert ids(pairs) == [(1, 3), (2, 4)]


def test_a_wave_pairs_as_many_as_it_can_before_minimising_the_gap():
    # 2-3 is the closest pair (40), but pairing 1-2 and 3-4 (60 + 60) pairs everyone.
    pairs = pair_seekers([seeker(1, 1500), seeker(2, 1560), seeker(3, 1600), seeker(4, 1660)], now=NOW)
    assert ids(pairs) == [(1, 2), (3, 4)]


def test_a_wave_minimises_the_total_gap_not_each_greedy_choice():
    # Greedy would take 2-3 (gap 10) and leave 1 and 4 unpaired (their gap 120 is out of range).
    # Pairing 1-2 (55) and 3-4 (55) pairs all four: more pairs first, then the smallest total.
    pairs = pair_seekers([seeker(1, 1000), seeker(2, 1055), seeker(3, 1065), seeker(4, 1120)], now=NOW)
    assert ids(pairs) == [(1, 2), (3, 4)]


def test_out_of_range_seekers_wait_and_are_paired_once_the_ranges_widen():
    a, b = seeker(1, 1500), seeker(2, 1950)
    assert pair_seekers([a, b], now=NOW) == []
    assert pair_seekers([a, b], now=NOW + timedelta(seconds=29)) == []  # ±400: still too far
    assert ids(pair_seekers([a, b], now=NOW + timedelta(seconds=30))) == [(1, 2)]  # ±500
    far = seeker(3, 2900)
    assert pair_seekers([a, far], now=NOW + timedelta(seconds=44)) == []
    assert ids(pair_seekers([a, far], now=NOW + timedelta(seconds=45))) == [(1, 3)]  # anyone


def test_ties_go_to_the_longer_waiter():
    newer, older, middle = seeker(1, 1450, waited=1), seeker(2, 1550, waited=5), seeker(3, 1500)
    assert ids(pair_seekers([newer, older, middle], now=NOW)) == [(2, 3)]
    newer, older = seeker(1, 1450, waited=5), seeker(2, 1550, waited=1)
    assert ids(pair_seekers([newer, older, middle], now=NOW)) == [(1, 3)]


def test_two_tabs_of_one_player_count_once_and_never_pair_each_other():
    tabs = [seeker(1, 1500, player="ann"), seeker(2, 1500, player="ann")]
    assert pair_seekers(tabs, now=NOW) == []
    pairs = pair_seekers([*tabs, seeker(3, 1500, player="bob")], now=NOW)
    assert len(pairs) == 1 and {pairs[0][0].player_id, pairs[0][1].player_id} == {"ann", "bob"}


def test_pools_are_paired_separately():
    pairs = pair_seekers(
        [seeker(1, 1500), seeker(2, 1500, pool=RANKED_30), seeker(3, 1510, pool=RANKED_30), seeker(4, 1520)],
        now=NOW,
    )
    assert ids(pairs) == [(1, 4), (2, 3)]
    assert all(a.pool == b.pool for a, b in pairs)


def test_a_large_wave_pairs_everyone_it_can_with_the_neighbour_bound():
    # 300 seekers 2 points apart in one pool: the bounded graph still pairs all of them.
    crowd = [seeker(i, 1000 + 2 * i) for i in range(300)]
    pairs = pair_seekers(crowd, now=NOW)
    assert len(pairs) == 150
    assert all(abs(a.rating - b.rating) == 2 for a, b in pairs)


# --- properties --------------------------------------------------------------------------------------
def brute_force_best(seekers, now, policy):
    """(pairs, total gap) of the best wave by exhaustive search: most pairs, then least total gap."""
    best = (0, 0.0)

    def search(rest, count, total):
        nonlocal best
        if (count, -total) > (best[0], -best[1]):
            best = (count, total)
        if len(rest) < 2:
            return
        first, others = rest[0], rest[1:]
        search(others, count, total)  # first stays unpaired
        for k, other in enumerate(others):
            if can_pair(first, other, now=now, policy=policy):
                search(others[:k] + others[k + 1 :], count + 1, total + abs(first.rating - other.rating))

    search(list(seekers), 0, 0.0)
    return best


seeker_lists = st.lists(
    st.tuples(
        st.integers(min_value=1000, max_value=2000),  # rating
        st.floats(min_value=0, max_value=60, allow_nan=False),  # seconds waited
        st.integers(min_value=0, max_value=5),  # player (repeats make two tabs of one player)
        st.sampled_from([CASUAL, RANKED_30]),
    ),
    max_size=9,
).map(
    lambda rows: [
        seeker(i + 1, rating, waited=waited, player=f"p{player}-{i % 4}", pool=pool)
        for i, (rating, waited, player, pool) in enumerate(rows)
    ]
)


@settings(max_examples=300, deadline=None)
@given(seekers=seeker_lists)
def test_property_no_seeker_twice_and_no_pair_beyond_the_range_in_force(seekers):
    pairs = pair_seekers(seekers, now=NOW)
    paired = [s.seek_id for pair in pairs for s in pair]
    assert len(paired) == len(set(paired)), "a seeker was paired twice"
    players = [s.player_id for pair in pairs for s in pair]
    assert len(players) == len(set(players)), "a player was paired twice"
    for a, b in pairs:
        assert a.pool == b.pool and a.player_id != b.player_id
        for one in (a, b):
            accepted = rating_range(one, now=NOW)
            other = b if one is a else a
            assert accepted.low is None or accepted.low <= other.rating <= accepted.high


@settings(max_examples=200, deadline=None)
@given(seekers=seeker_lists)
def test_property_a_wave_is_the_optimum_most_pairs_then_least_total_gap(seekers):
    unique_players = {}
    for s in seekers:
        unique_players.setdefault(s.player_id, s)
    candidates = list(unique_players.values())
    pairs = pair_seekers(seekers, now=NOW, neighbours=None)
    count, total = brute_force_best(candidates, NOW, DEFAULT_POLICY)
    assert len(pairs) == count
    assert sum(abs(a.rating - b.rating) for a, b in pairs) == pytest.approx(total)
