"""An arena's pairing wave, as a pure function (no Django, by contract).

Everyone waiting (joined, not paused, not withdrawn, not in a game) is paired at once:

1. ordered by their place in the current standings, then by rating (closest first);
2. each, in that order, takes the nearest waiting player after them who was not the opponent of their
   previous game and is not kept apart from them (one blocked the other); failing that, the nearest not
   kept apart (a rematch); only when nobody else is left do two kept apart meet;
3. a pair kept apart, then a rematch, left at the end is undone when swapping partners with another pair
   (or taking a player left over) avoids it without making one as bad (a rematch may undo a block);
4. colours: whoever had red less often in this arena (red minus yellow games) gets red; on a tie, the one
   lower in the standings.

With an odd number waiting, one waits for the next wave (the last in the order after the swaps).
O(n) for the usual wave, O(n²) at worst; 500 waiting players take about a millisecond.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Waiting:
    """A player waiting to be paired.

    ``rank``: place in the current standings (1 first); ``previous``: the opponent of their last game
    in this arena (None before their first); ``reds`` and ``yellows``: games played with each colour;
    ``apart``: the players they meet only when nobody else is left (one of the two blocked the other).
    """

    player_id: str
    rank: int
    rating: float
    previous: str | None = None
    reds: int = 0
    yellows: int = 0
    apart: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Pair:
    red: Waiting
    yellow: Waiting


def is_rematch(a: Waiting, b: Waiting) -> bool:
    """Whether ``a`` and ``b`` played each other in their previous game (either one's)."""
    return a.previous == b.player_id or b.previous == a.player_id


def is_apart(a: Waiting, b: Waiting) -> bool:
    """Whether one of ``a`` and ``b`` blocked the other."""
    return b.player_id in a.apart or a.player_id in b.apart


# How bad a pair is: kept apart worst, then a rematch; 0 is a good pair.
APART, REMATCH = 2, 1


def badness(a: Waiting, b: Waiting) -> int:
    return APART if is_apart(a, b) else REMATCH if is_rematch(a, b) else 0


def _order(w: Waiting) -> tuple[int, float, str]:
    return (w.rank, -w.rating, w.player_id)


def pair_waiting(waiting: Sequence[Waiting]) -> list[Pair]:
    """Pair everyone waiting (see the module docstring); every player is in at most one pair."""
    seen: set[str] = set()
    ordered = []
    for player in sorted(waiting, key=_order):
        if player.player_id not in seen:  # one entry per player, whatever the caller passed
            seen.add(player.player_id)
            ordered.append(player)
    pairs: list[list[Waiting]] = []
    left: list[Waiting] = []
    free = list(ordered)
    while free:
        first = free.pop(0)
        if not free:
            left.append(first)
            break
        # The nearest good partner; else the nearest not kept apart; else, nobody else being left, the nearest.
        partner = next((i for i, other in enumerate(free) if not badness(first, other)), None)
        if partner is None:
            partner = min(range(len(free)), key=lambda i: (badness(first, free[i]), i))
        pairs.append([first, free.pop(partner)])
    for worst in (APART, REMATCH):
        _undo_bad_pairs(pairs, left, worst)
    return [_coloured(a, b) for a, b in pairs]


def _undo_bad_pairs(pairs: list[list[Waiting]], left: list[Waiting], worst: int) -> None:
    """Swap partners so that no pair as bad as ``worst`` stays where another arrangement avoids it without
    making a pair as bad (in place)."""
    for pair in pairs:
        a, b = pair
        if badness(a, b) < worst:
            continue
        for i, spare in enumerate(left):  # a player left over takes one of the two places
            if badness(a, spare) < worst:
                pair[1], left[i] = spare, b
                break
            if badness(spare, b) < worst:
                pair[0], left[i] = spare, a
                break
        else:
            for other in pairs:
                if other is pair:
                    continue
                c, d = other
                if badness(a, c) < worst and badness(b, d) < worst:
                    pair[1], other[0] = c, b
                    other.sort(key=_order)
                    break
                if badness(a, d) < worst and badness(b, c) < worst:
                    pair[1], other[1] = d, b
                    other.sort(key=_order)
                    break
            else:
                continue
        pair.sort(key=_order)


def _coloured(a: Waiting, b: Waiting) -> Pair:
    """Red to whoever had it less often; on a tie, to the one lower in the standings (``b``)."""
    if a.reds - a.yellows < b.reds - b.yellows:
        return Pair(red=a, yellow=b)
    return Pair(red=b, yellow=a)
