"""Quick pairing by rating, as pure functions: the range a seeker accepts, and who is paired in a wave.

No database and no clock: callers pass the seekers (their rating and since when they wait) and ``now``.

- A seeker accepts opponents within a rating range around their own rating. It starts at ±100 and
  widens by 100 every 7.5 s of waiting, to ±500 after 30 s; after 45 s it accepts anyone.
- Two seekers can be paired when they chose the same pool (turn timer, ranked or casual), are
  different players, neither blocked the other, and each lies within the other's range: the gap is at
  most the narrower of the two half-widths. So no pair ever exceeds the range either of them was shown.
- A wave pairs as many seekers as it can, and among the ways to pair that many, the one with the
  smallest total rating gap; equal totals go to the longer waiters. That is a maximum-cardinality,
  maximum-weight matching on the graph of possible pairs (Edmonds' blossom algorithm, from networkx).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

import networkx as nx

# Rating gaps are weighed in hundredths of a point, wait times in tenths of a second: whole numbers
# keep the blossom algorithm exact (it is only approximate on floats).
GAP_UNITS_PER_POINT = 100
WAIT_UNITS_PER_SECOND = 10


@dataclass(frozen=True, slots=True)
class Pool:
    """What a seeker asked for: the turn timer (None, 30 or 60 seconds) and ranked or casual; for a
    correspondence seek, its days per move."""

    turn_seconds: int | None
    ranked: bool
    days_per_move: int | None = None


@dataclass(frozen=True, slots=True)
class Seeker:
    """One person in the pool.

    Attributes:
        seek_id: the seek's id, unique in a wave.
        player_id: the player's id; a player is never paired with themself.
        rating: the rating the player seeks with.
        since: when the seek began (its range widens from then on).
        pool: the pool it waits in; only seekers of one pool are paired together.
        apart: the players this one is never paired with (one of the two blocked the other).
    """

    seek_id: int
    player_id: str
    rating: float
    since: datetime
    pool: Pool
    apart: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class RangePolicy:
    """How a seeker's range widens with waiting: ``start`` points either side at first, ``step`` more
    every ``step_seconds``, at most ``widest``; anyone at all from ``anyone_after_seconds`` on."""

    start: float = 100.0
    step: float = 100.0
    step_seconds: float = 7.5
    widest: float = 500.0
    anyone_after_seconds: float = 45.0

    def half_width(self, waited_seconds: float) -> float:
        """How far from their rating a seeker who waited this long accepts an opponent (``inf``: anyone)."""
        waited = max(0.0, waited_seconds)
        if waited >= self.anyone_after_seconds:
            return math.inf
        return min(self.widest, self.start + self.step * math.floor(waited / self.step_seconds))


DEFAULT_POLICY = RangePolicy()


@dataclass(frozen=True, slots=True)
class RatingRange:
    """Ratings a seeker accepts, both ends included; None is an open end (anyone)."""

    low: float | None
    high: float | None

    def rounded(self) -> tuple[int | None, int | None]:
        """The range as whole points, as the protocol sends it."""
        return (
            None if self.low is None else round(self.low),
            None if self.high is None else round(self.high),
        )


def waited_seconds(seeker: Seeker, now: datetime) -> float:
    return max(0.0, (now - seeker.since).total_seconds())


def seeker_half_width(seeker: Seeker, *, now: datetime, policy: RangePolicy = DEFAULT_POLICY) -> float:
    return policy.half_width(waited_seconds(seeker, now))


def rating_range(seeker: Seeker, *, now: datetime, policy: RangePolicy = DEFAULT_POLICY) -> RatingRange:
    """The ratings ``seeker`` accepts at ``now``."""
    width = seeker_half_width(seeker, now=now, policy=policy)
    if math.isinf(width):
        return RatingRange(None, None)
    return RatingRange(seeker.rating - width, seeker.rating + width)


def can_pair(a: Seeker, b: Seeker, *, now: datetime, policy: RangePolicy = DEFAULT_POLICY) -> bool:
    """Whether ``a`` and ``b`` may be paired at ``now``: same pool, two players apart from no block, each in
    the other's range."""
    if a.pool != b.pool or a.player_id == b.player_id or a.seek_id == b.seek_id or _kept_apart(a, b):
        return False
    allowed = min(seeker_half_width(a, now=now, policy=policy), seeker_half_width(b, now=now, policy=policy))
    return abs(a.rating - b.rating) <= allowed


def _kept_apart(a: Seeker, b: Seeker) -> bool:
    return b.player_id in a.apart or a.player_id in b.apart


def pair_seekers(
    seekers: Iterable[Seeker],
    *,
    now: datetime,
    policy: RangePolicy = DEFAULT_POLICY,
    neighbours: int | None = 8,
) -> list[tuple[Seeker, Seeker]]:
    """The pairs of one wave: as many as possible, then the least total rating gap, then longer waits.

    Every pair satisfies :func:`can_pair` at ``now``, and no seeker is in two pairs. Seekers with a
    duplicate ``seek_id`` or ``player_id`` after the first are left out (a player waits once).

    ``neighbours`` bounds the graph: each seeker is offered to the ``neighbours`` closest-rated seekers
    above it that it can be paired with (and so, from their side, to those below it). While no seeker
    has more than that many possible partners above it the result is the exact optimum; the bound
    keeps a wave of several hundred seekers to a fraction of a second. None offers every possible pair.

    Returns the pairs, each ordered (lower seek id, higher), sorted by the first's seek id.
    """
    unique = _first_of_each_player(seekers)
    by_pool: dict[Pool, list[Seeker]] = defaultdict(list)
    for seeker in unique:
        by_pool[seeker.pool].append(seeker)
    pairs: list[tuple[Seeker, Seeker]] = []
    for members in by_pool.values():
        pairs.extend(_pair_pool(members, now=now, policy=policy, neighbours=neighbours))
    return sorted(pairs, key=lambda pair: pair[0].seek_id)


def _first_of_each_player(seekers: Iterable[Seeker]) -> list[Seeker]:
    players: set[str] = set()
    seeks: set[int] = set()
    unique: list[Seeker] = []
    for seeker in seekers:
        if seeker.player_id in players or seeker.seek_id in seeks:
            continue
        players.add(seeker.player_id)
        seeks.add(seeker.seek_id)
        unique.append(seeker)
    return unique


def _pair_pool(
    members: Sequence[Seeker], *, now: datetime, policy: RangePolicy, neighbours: int | None
) -> list[tuple[Seeker, Seeker]]:
    ordered = sorted(members, key=lambda s: (s.rating, s.seek_id))
    widths = [seeker_half_width(s, now=now, policy=policy) for s in ordered]
    edges: list[tuple[int, int, int]] = []  # (i, j, gap in units)
    for i, low in enumerate(ordered):
        found = 0
        for j in range(i + 1, len(ordered)):
            gap = ordered[j].rating - low.rating
            if gap > widths[i]:
                break  # sorted by rating: everyone further up is further away still
            if gap <= widths[j] and not _kept_apart(low, ordered[j]):
                edges.append((i, j, round(gap * GAP_UNITS_PER_POINT)))
                found += 1
                if neighbours is not None and found >= neighbours:
                    break
    if not edges:
        return []
    waits = [round(waited_seconds(s, now) * WAIT_UNITS_PER_SECOND) for s in ordered]
    # weight = (room above the largest gap) * M + both waits. Every maximum-cardinality matching has
    # the same number of pairs, so its weight is constant - M * (total gap) + (waits of the paired);
    # M exceeds the sum of all waits, so a smaller total gap always wins and waits only break ties.
    headroom = max(gap for _, _, gap in edges) + 1
    scale = sum(waits) + 1
    graph: nx.Graph[int] = nx.Graph()
    for i, j, gap in edges:
        graph.add_edge(i, j, weight=(headroom - gap) * scale + waits[i] + waits[j])
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = []
    for i, j in matching:
        a, b = ordered[i], ordered[j]
        pairs.append((a, b) if a.seek_id < b.seek_id else (b, a))
    return pairs
