"""An arena's pairing wave, as a pure function (no Django, by contract).

Everyone waiting (joined, not paused, not withdrawn, not in a game) is paired at once:

1. ordered by their place in the current standings, then by rating (closest first);
2. each, in that order, takes the nearest waiting player after them who was not the opponent of their
   previous game; only when nobody else is left do two previous opponents meet again;
3. a rematch left at the end is undone when swapping partners with another pair (or taking a player
   left over) avoids it without making another rematch;
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
    in this arena (None before their first); ``reds`` and ``yellows``: games played with each colour.
    """

    player_id: str
    rank: int
    rating: float
    previous: str | None = None
    reds: int = 0
    yellows: int = 0


@dataclass(frozen=True, slots=True)
class Pair:
    red: Waiting
    yellow: Waiting


def is_rematch(a: Waiting, b: Waiting) -> bool:
    """Whether ``a`` and ``b`` played each other in their previous game (either one's)."""
    return a.previous == b.player_id or b.previous == a.player_id


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
        partner = next((i for i, other in enumerate(free) if not is_rematch(first, other)), None)
        if partner is None:
            partner = 0 if free else None  # nobody else is left: previous opponents may meet again
        if partner is None:
            left.append(first)
            break
        pairs.append([first, free.pop(partner)])
    _undo_rematches(pairs, left)
    return [_coloured(a, b) for a, b in pairs]


def _undo_rematches(pairs: list[list[Waiting]], left: list[Waiting]) -> None:
    """Swap partners so that no rematch stays where another arrangement avoids it (in place)."""
    for pair in pairs:
        a, b = pair
        if not is_rematch(a, b):
            continue
        for i, spare in enumerate(left):  # a player left over takes one of the two places
            if not is_rematch(a, spare):
                pair[1], left[i] = spare, b
                break
            if not is_rematch(spare, b):
                pair[0], left[i] = spare, a
                break
        else:
            for other in pairs:
                if other is pair:
                    continue
                c, d = other
                if not is_rematch(a, c) and not is_rematch(b, d):
                    pair[1], other[0] = c, b
                    other.sort(key=_order)
                    break
                if not is_rematch(a, d) and not is_rematch(b, c):
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
