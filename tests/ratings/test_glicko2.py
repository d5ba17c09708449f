"""Tests for the pure Glicko-2 maths in ratings.glicko2."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.glicko2 import (
    MAX_RD,
    PROVISIONAL_RD,
    RD_GROWTH_PER_DAY_C,
    SCALE,
    ExpectedChanges,
    Rating,
    Result,
    decay_rd,
    expected_changes,
    rate,
    rate_game,
    rate_game_at,
)

# --- Glickman's worked example -------------------------------------------------------------


def test_paper_example() -> None:
    # "Example of the Glicko-2 system": the paper rounds intermediate values, so its printed
    # results are matched to the printed decimals.
    player = Rating(1500, 200, 0.06)
    results = [
        Result(Rating(1400, 30), 1),
        Result(Rating(1550, 100), 0),
        Result(Rating(1700, 300), 0),
    ]
    new = rate(player, results)
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.rd == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)


def test_defaults() -> None:
    r = Rating()
    assert (r.rating, r.rd, r.volatility) == (1500.0, 350.0, 0.06)
    assert r.is_provisional
    assert PROVISIONAL_RD == 110.0
    assert Rating(1500, 110).is_provisional
    assert not Rating(1500, 109.9).is_provisional


def test_rating_is_frozen() -> None:
    r = Rating()
    with pytest.raises(AttributeError):
        r.rating = 1600  # type: ignore[misc]


# --- draws, symmetry ----------------------------------------------------------------------

PAIRS = [
    (Rating(1500, 350), Rating(1500, 350)),
    (Rating(1800, 60), Rating(1400, 200)),
    (Rating(1300, 80), Rating(2000, 50)),
    (Rating(1500, 350), Rating(1900, 50)),  # provisional vs established
    (Rating(1900, 50), Rating(1500, 350)),  # established vs provisional
    (Rating(1650, 120, 0.09), Rating(1580, 70, 0.04)),
]


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_draw_is_halfway_between_win_and_loss(a: Rating, b: Rating) -> None:
    changes = expected_changes(a, b)
    assert isinstance(changes, ExpectedChanges)
    assert changes.win > 0 > changes.loss
    assert changes.loss < changes.draw < changes.win
    assert changes.draw == pytest.approx((changes.win + changes.loss) / 2, abs=0.5)


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_expected_changes_match_rate_game(a: Rating, b: Rating) -> None:
    changes = expected_changes(a, b)
    for score, change in ((1, changes.win), (0.5, changes.draw), (0, changes.loss)):
        new_a, _ = rate_game(a, b, score)
        assert new_a.rating - a.rating == pytest.approx(change)


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_winner_gains_loser_loses(a: Rating, b: Rating) -> None:
    new_a, new_b = rate_game(a, b, 1)
    assert new_a.rating > a.rating
    assert new_b.rating < b.rating
    new_a, new_b = rate_game(a, b, 0)
    assert new_a.rating < a.rating
    assert new_b.rating > b.rating


@pytest.mark.parametrize(("rating", "rd"), [(1500, 350), (1500, 200), (1800, 60), (1200, 110)])
def test_equal_players_equal_and_opposite_changes(rating: float, rd: float) -> None:
    a = Rating(rating, rd)
    b = Rating(rating, rd)
    new_a, new_b = rate_game(a, b, 1)
    assert new_a.rating - a.rating == pytest.approx(-(new_b.rating - b.rating))
    assert new_a.rd == pytest.approx(new_b.rd)
    draw_a, draw_b = rate_game(a, b, 0.5)
    assert draw_a.rating == pytest.approx(rating)
    assert draw_b.rating == pytest.approx(rating)


def test_rate_game_uses_pre_game_ratings() -> None:
    a, b = Rating(1600, 150), Rating(1450, 90)
    new_a, new_b = rate_game(a, b, 0.5)
    assert new_a == rate(a, [Result(b, 0.5)])
    assert new_b == rate(b, [Result(a, 0.5)])


def test_upset_win_gains_more_than_expected_win() -> None:
    weak, strong = Rating(1400, 80), Rating(1800, 80)
    assert expected_changes(weak, strong).win > expected_changes(strong, weak).win


def test_new_player_rd_shrinks_after_a_game() -> None:
    new_a, new_b = rate_game(Rating(), Rating(), 1)
    assert new_a.rd < 350 and new_b.rd < 350


# --- rating periods without games, RD bounds -------------------------------------------------


def test_no_results_only_grows_rd() -> None:
    player = Rating(1620, 200, 0.06)
    new = rate(player, [])
    assert new.rating == player.rating
    assert new.volatility == player.volatility
    expected_phi = math.sqrt((200 / SCALE) ** 2 + 0.06**2)
    assert new.rd == pytest.approx(expected_phi * SCALE)
    assert new.rd > player.rd


def test_no_results_rd_capped_at_350() -> None:
    assert rate(Rating(1500, 350), []).rd == MAX_RD == 350.0


def test_rd_never_above_350_after_extreme_game() -> None:
    # A new player against a far-away opponent learns almost nothing; RD stays <= 350.
    new_a, _ = rate_game(Rating(1500, 350, 0.2), Rating(3500, 30), 0)
    assert new_a.rd <= MAX_RD


def test_established_rd_has_a_floor() -> None:
    # With volatility 0.06 and one game per period, RD settles around 60: a very low RD grows
    # slightly even after a game (documented property of per-game Glicko-2 periods).
    r = Rating(1500, 40)
    for _ in range(200):
        r, _ = rate_game(r, Rating(1500, 40), 0.5)
    assert 55 < r.rd < 65


# --- inactivity decay ----------------------------------------------------------------------


def test_decay_constant_derivation() -> None:
    c_squared = RD_GROWTH_PER_DAY_C**2
    assert c_squared == pytest.approx((110**2 - 60**2) / 365)
    assert math.isclose(RD_GROWTH_PER_DAY_C, 4.8257, abs_tol=1e-4)


def test_decay_60_to_110_in_a_year() -> None:
    r = decay_rd(Rating(1700, 60, 0.05), days=365)
    assert r.rd == pytest.approx(110, abs=0.5)
    assert r.rating == 1700
    assert r.volatility == 0.05


def test_decay_is_monotonic_and_zero_days_is_identity() -> None:
    r = Rating(1500, 60)
    assert decay_rd(r, days=0) == r
    rds = [decay_rd(r, days=d).rd for d in (1, 30, 180, 365, 1000)]
    assert rds == sorted(rds)
    assert decay_rd(r, days=0.5).rd > 60


def test_decay_capped_at_350() -> None:
    assert decay_rd(Rating(1500, 60), days=100_000).rd == 350
    assert decay_rd(Rating(1500, 349), days=365).rd == 350
    assert decay_rd(Rating(1500, 350), days=365).rd == 350


def test_rate_game_at_applies_decay_first() -> None:
    a, b = Rating(1600, 60), Rating(1550, 80)
    expected = rate_game(decay_rd(a, days=365), decay_rd(b, days=3), 1)
    assert rate_game_at(a, 365, b, 3, 1) == expected
    assert rate_game_at(a, 0, b, 0, 1) == rate_game(a, b, 1)


# --- validation ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {"rd": 0},
        {"rd": -10},
        {"rd": math.inf},
        {"rd": math.nan},
        {"volatility": 0},
        {"volatility": -0.06},
        {"volatility": math.nan},
        {"rating": math.inf},
        {"rating": -math.inf},
        {"rating": math.nan},
        {"rating": "1500"},
    ],
)
def test_bad_rating_raises(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        Rating(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("score", [2, -1, 0.25, 0.75, math.nan, math.inf, True, "1"])
def test_bad_score_raises(score: object) -> None:
    with pytest.raises(ValueError, match="score"):
        Result(Rating(), score)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="score"):
        rate_game(Rating(), Rating(), score)  # type: ignore[arg-type]


def test_valid_scores_accepted() -> None:
    for score in (0, 0.5, 1, 0.0, 1.0):
        Result(Rating(), score)


def test_bad_opponent_raises() -> None:
    with pytest.raises(ValueError, match="opponent"):
        Result(1500, 1)  # type: ignore[arg-type]


@pytest.mark.parametrize("tau", [0, -0.5, math.nan, math.inf])
def test_bad_tau_raises(tau: float) -> None:
    with pytest.raises(ValueError, match="tau"):
        rate(Rating(), [Result(Rating(), 1)], tau=tau)
    with pytest.raises(ValueError, match="tau"):
        rate_game(Rating(), Rating(), 1, tau=tau)


@pytest.mark.parametrize("days", [-1, math.nan, math.inf])
def test_bad_days_raises(days: float) -> None:
    with pytest.raises(ValueError, match="days"):
        decay_rd(Rating(), days=days)


def test_tau_is_keyword_only() -> None:
    with pytest.raises(TypeError):
        rate(Rating(), [], 0.5)  # type: ignore[call-arg]


# --- properties ----------------------------------------------------------------------------

ratings = st.builds(
    Rating,
    rating=st.floats(100, 3000),
    rd=st.floats(30, 350),
    volatility=st.floats(0.01, 0.15),
)
scores = st.sampled_from([0.0, 0.5, 1.0])
taus = st.floats(0.3, 1.2)


def _expected_score(a: Rating, b: Rating) -> float:
    g = 1 / math.sqrt(1 + 3 * (b.rd / SCALE) ** 2 / math.pi**2)
    return 1 / (1 + math.exp(-g * (a.rating - b.rating) / SCALE))


@settings(max_examples=300, deadline=None)
@given(a=ratings, b=ratings, score=scores, tau=taus)
def test_property_game(a: Rating, b: Rating, score: float, tau: float) -> None:
    new_a, new_b = rate_game(a, b, score, tau=tau)
    for new in (new_a, new_b):
        assert math.isfinite(new.rating)
        assert math.isfinite(new.rd) and 0 < new.rd <= MAX_RD
        assert math.isfinite(new.volatility) and new.volatility > 0

    # Ratings move in the direction of score minus expectation.
    surprise = score - _expected_score(a, b)
    delta = new_a.rating - a.rating
    if surprise > 1e-9:
        assert delta > 0
    elif surprise < -1e-9:
        assert delta < 0
    else:
        assert abs(delta) < 1e-3

    # A game never leaves RD above what the same period without a game would give
    # (phi' <= phi* = sqrt(phi^2 + sigma'^2)); in particular a game never makes RD
    # larger than the no-game growth.
    for old, new in ((a, new_a), (b, new_b)):
        phi_star = math.sqrt((old.rd / SCALE) ** 2 + new.volatility**2) * SCALE
        assert new.rd <= min(MAX_RD, phi_star) + 1e-9


@settings(max_examples=300, deadline=None)
@given(
    a=st.builds(Rating, rating=st.floats(1000, 2200), rd=st.floats(110, 350), volatility=st.just(0.06)),
    gap=st.floats(-400, 400),
    b_rd=st.floats(30, 350),
    score=scores,
)
def test_property_provisional_rd_shrinks(a: Rating, gap: float, b_rd: float, score: float) -> None:
    # A provisional player (RD >= 110) always becomes more certain after a game against an
    # opponent within 400 points. (Not true for every pairing: against a far-away opponent
    # the game is nearly uninformative and volatility growth can win; see test_property_game.)
    b = Rating(a.rating + gap, b_rd)
    new_a, _ = rate_game(a, b, score)
    assert new_a.rd < a.rd


@settings(max_examples=200, deadline=None)
@given(r=ratings, days=st.floats(0, 5000))
def test_property_decay(r: Rating, days: float) -> None:
    new = decay_rd(r, days=days)
    assert r.rd <= new.rd <= MAX_RD
    assert new.rating == r.rating and new.volatility == r.volatility
