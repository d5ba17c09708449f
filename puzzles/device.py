"""What a device without a player has seen of puzzles, kept in its session.

A device without a player is judged but never rated, and a finished attempt shows the solution: the puzzle
is then *seen* on that device, and a rated attempt at it later (by the player the device gets, or the
account it logs into) would rate a solution read beforehand. So the session keeps the ids of the puzzles
it was shown (the latest ``SEEN_KEPT``), and when the device gets a player
(:data:`players.identity.DEVICE_ATTACHED`) they become that player's :class:`puzzles.models.PuzzleSeen`.
"""

from __future__ import annotations

from django.contrib.sessions.backends.base import SessionBase
from django.utils import timezone

from players.identity import DeviceAttached
from puzzles.services import puzzles_seen_add

SESSION_KEY = "puzzles_seen"
SEEN_KEPT = 500


def seen_on_device(session: SessionBase) -> frozenset[str]:
    """The puzzles whose solution this device was shown while it had no player."""
    kept = session.get(SESSION_KEY)
    return frozenset(p for p in kept if isinstance(p, str)) if isinstance(kept, list) else frozenset()


def device_seen_mark(session: SessionBase, puzzle_id: str) -> None:
    """Remember on the device that it was shown ``puzzle_id``'s solution."""
    kept = [p for p in session.get(SESSION_KEY, []) if isinstance(p, str) and p != puzzle_id]
    session[SESSION_KEY] = [*kept, puzzle_id][-SEEN_KEPT:]


def puzzles_device_attached(attached: DeviceAttached) -> None:
    """``players.identity.DEVICE_ATTACHED``'s handler: the device's seen puzzles become its new player's."""
    seen = seen_on_device(attached.session)
    if seen:
        puzzles_seen_add(player=attached.player, puzzle_ids=seen, now=timezone.now())
