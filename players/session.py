"""What ``/api/session`` says of the device's player: who (``player``) and their account's ``username``,
with the parts the layers above add (:data:`SESSION_PARTS`: the player's rating by ``ratings``, their open
rooms by ``lobby``), so the session lives with the players and imports nothing above them.

A device without a player yet (a first visit, or after logging out) is a normal state: the same fields,
``player`` and ``username`` null and each part's value for no player. A ``new`` player (just made) has
nothing to read: a part answers without a query.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from rest_framework import serializers

from common.hooks import Registry
from players.models import Player
from players.selectors import player_json

T = TypeVar("T")

# The player's name as a device's first guest, when it chose none.
DEFAULT_GUEST_NAME = "Guest"


class SessionPartValue(Protocol):
    def __call__(self, player: Player | None, *, new: bool) -> Any: ...


class SessionPartField(Protocol):
    def __call__(self) -> serializers.Field[Any, Any, Any, Any]: ...


@dataclass(frozen=True, slots=True)
class SessionPart:
    """One more field of the session from a layer above: its ``key``, its value ``build(player, new=)``,
    its schema ``field()``, and the field it follows (``after``: the answer reads as it always has)."""

    key: str
    build: SessionPartValue
    field: SessionPartField
    after: str


SESSION_PARTS: Registry[SessionPart] = Registry("session parts")
"""The session's parts from the layers above, registered at start-up (``ratings`` its ``"rating"``,
``lobby`` its ``"rooms"``)."""


def in_order(own: dict[str, T], parts: Iterable[tuple[str, str, T]]) -> dict[str, T]:
    """``own`` with each part ``(key, after, value)`` inserted after the key ``after`` (a programming error,
    ValueError, if no key before it is named so)."""
    items = list(own.items())
    for key, after, value in parts:
        at = [name for name, _ in items].index(after) + 1
        items.insert(at, (key, value))
    return dict(items)


def session_json(player: Player | None, *, new: bool = False) -> dict[str, Any]:
    """The session's answer: ``player``, ``username`` and every :data:`SESSION_PARTS` part's value."""
    own = {"player": player_json(player),
           "username": player.user.username if player is not None and player.user is not None else None}
    return in_order(own, ((part.key, part.after, part.build(player, new=new)) for part in SESSION_PARTS))
