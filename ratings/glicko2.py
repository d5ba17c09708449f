"""Glicko-2 rating maths (standard library only, no Django).

This follows Mark Glickman's "Example of the Glicko-2 system" step by step:

1. Ratings live on the familiar Glicko scale (new players: 1500 / RD 350 / volatility 0.06).
2. For a rating period they are converted to the Glicko-2 scale (mu, phi), the estimated variance
   ``v`` and improvement ``delta`` are computed, the new volatility is found with the Illinois
   algorithm (a regula falsi variant) to a tolerance of ``CONVERGENCE_TOLERANCE``, and the result
   is converted back.

Project conventions on top of the paper:

* Each rated game is one rating period for both players (:func:`rate_game`).
* RD never leaves ``(0, MAX_RD]`` in anything this module returns: results are capped at 350,
  the RD of a brand-new player, as lichess does.
* Inactivity between games is modelled with :func:`decay_rd` (Glicko-1 style, see
  ``RD_GROWTH_PER_DAY_C``). Callers either call :func:`decay_rd` themselves before rating or use
  :func:`rate_game_at`, which does both.

Everything here is pure: all values are immutable and no function has side effects.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "CONVERGENCE_TOLERANCE",
    "DEFAULT_RATING",
    "DEFAULT_RD",
    "DEFAULT_TAU",
    "DEFAULT_VOLATILITY",
    "MAX_RD",
    "PROVISIONAL_RD",
    "RD_GROWTH_PER_DAY_C",
    "SCALE",
    "VALID_SCORES",
    "ExpectedChanges",
    "Rating",
    "Result",
    "decay_rd",
    "expected_changes",
    "rate",
    "rate_game",
    "rate_game_at",
]

DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
DEFAULT_TAU = 0.5
"""System constant tau: how much volatility may change per period (Glickman suggests 0.3-1.2)."""

MAX_RD = 350.0
"""Upper bound for RD: a player is never less certain than a brand-new one."""

PROVISIONAL_RD = 110.0
"""A rating with RD >= this value is provisional (lichess uses the same threshold)."""

CONVERGENCE_TOLERANCE = 0.000001
"""Epsilon of the Illinois iteration for the new volatility (value from Glickman's paper)."""

SCALE = 173.7178
"""Factor between the Glicko scale and the Glicko-2 scale (400 / ln 10, as in the paper)."""

# Inactivity: RD' = min(350, sqrt(RD**2 + c**2 * t)) with t in days (Glicko-1 style, rating scale).
# We want an established player at RD 60 to be back at the provisional threshold RD 110 after one
# idle year, as on lichess:
#     110**2 = 60**2 + c**2 * 365   =>   c**2 = (110**2 - 60**2) / 365 = 8500 / 365 ~= 23.288
# so c ~= 4.8257 rating points per sqrt(day).
RD_GROWTH_PER_DAY_C = math.sqrt((110.0**2 - 60.0**2) / 365.0)

VALID_SCORES: tuple[float, ...] = (0.0, 0.5, 1.0)
"""Allowed game scores from the rated player's point of view: loss, draw, win."""

_MAX_ILLINOIS_ITERATIONS = 1000  # Safety net only; convergence takes a handful of steps.


def _require_finite(name: str, value: float) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{name} must be a real number, got {value!r}")
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value!r}")


def _require_positive(name: str, value: float) -> None:
    _require_finite(name, value)
    if value <= 0:
        raise ValueError(f"{name} must be > 0, got {value!r}")


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's Glicko-2 rating on the Glicko (display) scale.

    Contract:
        * ``rating`` is a finite number (default 1500).
        * ``rd`` (rating deviation) is finite and > 0 (default 350, the RD of a new player).
        * ``volatility`` is finite and > 0 (default 0.06).
        Anything else raises ``ValueError`` on construction.
    """

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY

    def __post_init__(self) -> None:
        _require_finite("rating", self.rating)
        _require_positive("rd", self.rd)
        _require_positive("volatility", self.volatility)

    @property
    def is_provisional(self) -> bool:
        """True while the rating is still uncertain, i.e. ``rd >= PROVISIONAL_RD`` (110)."""
        return self.rd >= PROVISIONAL_RD


@dataclass(frozen=True, slots=True)
class Result:
    """One game result against ``opponent`` (the opponent's rating *before* the game).

    Contract: ``score`` is 1 (win), 0.5 (draw) or 0 (loss) from the rated player's point of
    view; any other value raises ``ValueError``. ``opponent`` must be a :class:`Rating`.
    """

    opponent: Rating
    score: float

    def __post_init__(self) -> None:
        if not isinstance(self.opponent, Rating):
            raise ValueError(f"opponent must be a Rating, got {type(self.opponent).__name__}")
        _check_score(self.score)


@dataclass(frozen=True, slots=True)
class ExpectedChanges:
    """How much a player's displayed rating would change after a win, a draw or a loss.

    Values are signed rating-point deltas (new rating minus old rating); normally
    ``win > 0 > loss`` and ``draw`` lies roughly halfway between them.
    """

    win: float
    draw: float
    loss: float


def _check_score(score: float) -> None:
    if isinstance(score, bool) or not isinstance(score, int | float) or score not in VALID_SCORES:
        raise ValueError(f"score must be 1 (win), 0.5 (draw) or 0 (loss), got {score!r}")


def _check_tau(tau: float) -> None:
    _require_positive("tau", tau)


def _g(phi: float) -> float:
    """Glickman's g(phi): dampens the impact of an opponent with an uncertain rating."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected_score(mu: float, mu_j: float, phi_j: float) -> float:
    """Glickman's E(mu, mu_j, phi_j): expected score against opponent j."""
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of the paper: solve f(x) = 0 with the Illinois algorithm; return sigma'."""
    a = math.log(sigma * sigma)
    phi2 = phi * phi
    delta2 = delta * delta

    def f(x: float) -> float:
        ex = math.exp(x)
        denom = phi2 + v + ex
        return ex * (delta2 - phi2 - v - ex) / (2.0 * denom * denom) - (x - a) / (tau * tau)

    big_a = a
    if delta2 > phi2 + v:
        big_b = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau

    f_a = f(big_a)
    f_b = f(big_b)
    for _ in range(_MAX_ILLINOIS_ITERATIONS):
        if abs(big_b - big_a) <= CONVERGENCE_TOLERANCE:
            break
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Rating, results: Sequence[Result], *, tau: float = DEFAULT_TAU) -> Rating:
    """Return ``player``'s rating after one rating period containing ``results``.

    Contract:
        * All results are evaluated against the opponents' ratings as given (pre-period).
        * With no results only the RD grows: ``phi' = sqrt(phi**2 + sigma**2)``; rating and
          volatility are unchanged (paper, step 1 note).
        * The returned RD is capped at ``MAX_RD`` (350).
        * ``tau`` must be finite and > 0, otherwise ``ValueError``.
    """
    _check_tau(tau)
    if not isinstance(player, Rating):
        raise ValueError(f"player must be a Rating, got {type(player).__name__}")
    for result in results:
        if not isinstance(result, Result):
            raise ValueError(f"results must contain Result objects, got {type(result).__name__}")

    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility

    if not results:
        new_phi = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, min(MAX_RD, new_phi * SCALE), sigma)

    # Steps 3 and 4: estimated variance v and estimated improvement delta.
    v_inverse = 0.0
    improvement_sum = 0.0
    for result in results:
        mu_j = (result.opponent.rating - DEFAULT_RATING) / SCALE
        phi_j = result.opponent.rd / SCALE
        g_j = _g(phi_j)
        e_j = _expected_score(mu, mu_j, phi_j)
        v_inverse += g_j * g_j * e_j * (1.0 - e_j)
        improvement_sum += g_j * (result.score - e_j)
    v = 1.0 / v_inverse
    delta = v * improvement_sum

    # Step 5: new volatility. Steps 6 and 7: new phi and mu.
    new_sigma = _new_volatility(phi, sigma, v, delta, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement_sum

    # Step 8: back to the Glicko scale.
    return Rating(
        rating=SCALE * new_mu + DEFAULT_RATING,
        rd=min(MAX_RD, SCALE * new_phi),
        volatility=new_sigma,
    )


def rate_game(a: Rating, b: Rating, score_a: float, *, tau: float = DEFAULT_TAU) -> tuple[Rating, Rating]:
    """Rate one game between ``a`` and ``b`` as a rating period of its own for both players.

    ``score_a`` is a's score (1 win, 0.5 draw, 0 loss); b scores ``1 - score_a``. Both players
    are updated simultaneously from their pre-game ratings. Returns ``(new_a, new_b)``.
    Raises ``ValueError`` for an invalid score or tau.
    """
    _check_score(score_a)
    new_a = rate(a, [Result(b, score_a)], tau=tau)
    new_b = rate(b, [Result(a, 1.0 - score_a)], tau=tau)
    return new_a, new_b


def decay_rd(r: Rating, *, days: float) -> Rating:
    """Return ``r`` with its RD grown for ``days`` of inactivity (rating and volatility unchanged).

    ``RD' = min(350, sqrt(RD**2 + RD_GROWTH_PER_DAY_C**2 * days))``: an RD of 60 reaches 110
    after 365 idle days. An RD already at or above 350 is left as it is. ``days`` must be
    finite and >= 0 (fractions allowed), otherwise ``ValueError``.
    """
    _require_finite("days", days)
    if days < 0:
        raise ValueError(f"days must be >= 0, got {days!r}")
    if r.rd >= MAX_RD:
        return r
    new_rd = min(MAX_RD, math.sqrt(r.rd * r.rd + RD_GROWTH_PER_DAY_C**2 * days))
    return Rating(r.rating, new_rd, r.volatility)


def rate_game_at(
    a: Rating,
    a_days_idle: float,
    b: Rating,
    b_days_idle: float,
    score_a: float,
    *,
    tau: float = DEFAULT_TAU,
) -> tuple[Rating, Rating]:
    """Like :func:`rate_game`, after first applying :func:`decay_rd` for each player's idle days.

    ``a_days_idle`` / ``b_days_idle`` are the days since that player's previous rated game
    (0 if none or just played). Returns ``(new_a, new_b)``.
    """
    return rate_game(decay_rd(a, days=a_days_idle), decay_rd(b, days=b_days_idle), score_a, tau=tau)


def expected_changes(a: Rating, b: Rating, *, tau: float = DEFAULT_TAU) -> ExpectedChanges:
    """What a win, a draw and a loss against ``b`` would change ``a``'s rating by.

    Meant for the room screen before a ranked game. Uses the same maths as :func:`rate_game`
    (no inactivity decay: apply :func:`decay_rd` first if the caller uses it when rating).
    """

    def change(score: float) -> float:
        return rate(a, [Result(b, score)], tau=tau).rating - a.rating

    return ExpectedChanges(win=change(1.0), draw=change(0.5), loss=change(0.0))
