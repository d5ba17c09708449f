"""An arena's pairing wave: everyone once at most, close in the standings, no avoidable rematch, colours."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import Waiting, is_apart, is_rematch, pair_waiting


def names(pairs):
    return [(p.red.player_id, p.yellow.player_id) for p in pairs]


def test_neighbours_in_the_standings_meet():
    waiting = [Waiting(f"p{i}", rank=i, rating=1500) for i in (4, 1, 3, 2)]
    assert sorted(tuple(sorted(pair)) for pair in names(pair_waiting(waiting))) == [("p1", "p2"), ("p3", "p4")]


def test_the_rating_decides_between_equal_places():
    waiting = [Waiting("a", 1, 1500), Waiting("b", 1, 1900), Waiting("c", 1, 1880), Waiting("d", 1, 1510)]
    assert sorted(tuple(sorted(pair)) for pair in names(pair_waiting(waiting))) == [("a", "d"), ("b", "c")]


def test_no_rematch_while_someone_else_waits():
    a = Waiting("a", 1, 1500, previous="b")
    b = Waiting("b", 2, 1500, previous="a")
    c = Waiting("c", 3, 1500)
    pairs = pair_waiting([a, b, c])
    assert len(pairs) == 1 and not is_rematch(pairs[0].red, pairs[0].yellow)


def test_the_last_two_may_meet_again_when_nobody_else_waits():
    a, b = Waiting("a", 1, 1500, previous="b"), Waiting("b", 2, 1500, previous="a")
    assert len(pair_waiting([a, b])) == 1


def test_a_rematch_at_the_end_is_undone_by_swapping_with_another_pair():
    # In order a b c d: a-b first, leaving c and d, who just played each other: swapped to a-c, b-d (or a-d, b-c).
    waiting = [Waiting("a", 1, 1500), Waiting("b", 2, 1500), Waiting("c", 3, 1500, previous="d"),
               Waiting("d", 4, 1500, previous="c")]
    pairs = pair_waiting(waiting)
    assert len(pairs) == 2 and not any(is_rematch(p.red, p.yellow) for p in pairs)


def test_red_to_whoever_had_it_less_often_and_on_a_tie_to_the_lower_placed():
    leader, other = Waiting("a", 1, 1500, reds=3, yellows=1), Waiting("b", 2, 1500, reds=1, yellows=1)
    assert names(pair_waiting([leader, other])) == [("b", "a")]
    leader, other = Waiting("a", 1, 1500, reds=0, yellows=1), Waiting("b", 2, 1500, reds=1, yellows=1)
    assert names(pair_waiting([leader, other])) == [("a", "b")]
    assert names(pair_waiting([Waiting("a", 1, 1500), Waiting("b", 2, 1500)])) == [("b", "a")]


def test_a_player_passed_twice_is_paired_once():
    a = Waiting("a", 1, 1500)
    assert len(pair_waiting([a, a, Waiting("b", 2, 1500)])) == 1


@st.composite
def waves(draw):
    count = draw(st.integers(0, 30))
    ids = [f"p{i}" for i in range(count)]
    return [
        Waiting(
            player_id=pid, rank=draw(st.integers(1, 40)), rating=draw(st.floats(800, 2400)),
            previous=draw(st.one_of(st.none(), st.sampled_from([*ids, "gone"]))),
            reds=draw(st.integers(0, 5)), yellows=draw(st.integers(0, 5)),
        )
        for pid in ids
    ]


@given(waves())
@settings(deadline=None)  # a property, not a speed: a busy shared machine must not fail it
def test_nobody_is_paired_twice_and_everyone_but_one_is_paired(waiting):
    pairs = pair_waiting(waiting)
    seen = [p.red.player_id for p in pairs] + [p.yellow.player_id for p in pairs]
    assert len(seen) == len(set(seen))  # no one in two games at once
    assert set(seen) <= {w.player_id for w in waiting}
    assert len(seen) >= len(waiting) - 1  # at most one waits for the next wave


@given(waves())
@settings(deadline=None)  # a property, not a speed: a busy shared machine must not fail it
def test_no_immediate_rematch_while_another_player_waits(waiting):
    pairs = pair_waiting(waiting)
    paired = {p.red.player_id for p in pairs} | {p.yellow.player_id for p in pairs}
    left = [w for w in waiting if w.player_id not in paired]
    for pair in pairs:
        a, b = pair.red, pair.yellow
        if not is_rematch(a, b):
            continue
        # A rematch only when nobody could take either place instead: no one left over fits ...
        assert all(is_rematch(a, spare) and is_rematch(spare, b) for spare in left)
        # ... and no swap with another pair avoids it.
        for other in pairs:
            if other is pair:
                continue
            c, d = other.red, other.yellow
            assert (is_rematch(a, c) or is_rematch(b, d)) and (is_rematch(a, d) or is_rematch(b, c))


@given(waves())
@settings(deadline=None)  # a property, not a speed: a busy shared machine must not fail it
def test_colours_go_to_whoever_had_red_less_often(waiting):
    for pair in pair_waiting(waiting):
        assert pair.red.reds - pair.red.yellows <= pair.yellow.reds - pair.yellow.yellows


# --- blocks: a pair kept apart meets only when nobody else is left -------------------------------------
def apart(name: str, rank: int, *others: str, previous: str | None = None) -> Waiting:
    return Waiting(name, rank, 1500, previous=previous, apart=frozenset(others))


def test_players_kept_apart_do_not_meet_while_someone_else_waits():
    pairs = pair_waiting([apart("a", 1, "b"), apart("b", 2), apart("c", 3)])
    assert [sorted(pair) for pair in names(pairs)] == [["a", "c"]]


def test_a_pair_kept_apart_is_worse_than_a_rematch():
    # b is kept apart from both others: a and c meet again rather than either meeting b.
    pairs = pair_waiting([apart("a", 1, "b"), apart("b", 2, "c"), apart("c", 3, previous="a")])
    assert [sorted(pair) for pair in names(pairs)] == [["a", "c"]]


def test_a_pair_kept_apart_at_the_end_is_undone_by_swapping():
    # In order a b c d: a-b first, leaving c and d, one of whom blocked the other: swapped.
    pairs = pair_waiting([apart("a", 1), apart("b", 2), apart("c", 3, "d"), apart("d", 4)])
    assert len(pairs) == 2 and all(not is_apart(p.red, p.yellow) for p in pairs)


def test_the_last_two_kept_apart_meet_when_nobody_else_waits():
    assert len(pair_waiting([apart("a", 1, "b"), apart("b", 2)])) == 1


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=12), st.data())
def test_no_pair_kept_apart_where_a_player_left_over_could_take_a_place(n, data):
    blocks = data.draw(st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))))
    others = {i: {f"p{b}" for a, b in blocks if a == i and b != i} for i in range(n)}
    waiting = [Waiting(f"p{i}", rank=i + 1, rating=1500, apart=frozenset(others[i])) for i in range(n)]
    pairs = pair_waiting(waiting)
    paired = {p.red.player_id for p in pairs} | {p.yellow.player_id for p in pairs}
    left = [w for w in waiting if w.player_id not in paired]
    assert len(left) == n % 2
    for pair in pairs:
        if is_apart(pair.red, pair.yellow):
            # no one left over could have taken either place without a pair kept apart
            assert all(is_apart(spare, pair.red) and is_apart(spare, pair.yellow) for spare in left)
