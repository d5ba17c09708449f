"""House rules: what a host may set, validated in one place for REST and websocket alike."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext, ngettext

from common.errors import Refused
from common.params import one_of
from lobby.protocol.frames import DAYS_PER_MOVE_CHOICES, TURN_SECONDS_CHOICES
from lobby.protocol.room import CPU_LEVELS, RULE_FIELDS

if TYPE_CHECKING:
    from lobby.models import Room


@dataclass(frozen=True, slots=True)
class HouseRules:
    """A room's house rules.

    Defaults: no turn timer, live (no days per move), alternate first move, ranked, CPU level 3,
    spectators' chat on, not open.

    ``open``: the room is listed in the lobby's open games while a seat is free ("Open to anyone").
    """

    turn_seconds: int | None = None
    days_per_move: int | None = None
    alternate_first: bool = True
    ranked: bool = True
    cpu_level: int = 3
    spectator_chat: bool = True
    open: bool = False

    def updated(self, changes: Mapping[str, object]) -> HouseRules:
        """These rules with ``changes`` applied.

        Raises:
            Refused(bad_rules): an unknown field or a value out of range.
        """
        unknown = sorted(set(changes) - set(RULE_FIELDS))
        if unknown:
            raise Refused("bad_rules",
                          ngettext("Unknown house rule: %(rules)s.", "Unknown house rules: %(rules)s.", len(unknown))
                          % {"rules": ", ".join(unknown)})
        values: dict[str, Any] = {}  # Any: each value is checked above against its field (replace takes them)
        if "turn_seconds" in changes:
            seconds = changes["turn_seconds"]
            if not one_of(seconds, TURN_SECONDS_CHOICES):
                raise Refused("bad_rules", gettext("The turn time limit is none, 30 or 60 seconds."))
            values["turn_seconds"] = seconds
        if "days_per_move" in changes:
            days = changes["days_per_move"]
            if not one_of(days, DAYS_PER_MOVE_CHOICES):
                raise Refused("bad_rules", gettext("The days per move are none, 1, 2, 3, 5 or 7."))
            values["days_per_move"] = days
        for flag in ("alternate_first", "ranked", "spectator_chat", "open"):
            if flag in changes:
                if not isinstance(changes[flag], bool):
                    raise Refused("bad_rules", gettext("%(rule)s must be true or false.") % {"rule": flag})
                values[flag] = changes[flag]
        if "cpu_level" in changes:
            level = changes["cpu_level"]
            if not one_of(level, CPU_LEVELS):
                raise Refused("bad_rules", gettext("The CPU level is a whole number from 1 to 5."))
            values["cpu_level"] = level
        rules = replace(self, **values)
        if rules.turn_seconds is not None and rules.days_per_move is not None:
            raise Refused("bad_rules", gettext("A game has a turn timer or days per move, not both."))
        return rules

    @classmethod
    def of(cls, room: Room) -> HouseRules:
        """The rules a room (anything with the rule fields, a ``Room`` row) holds now."""
        return cls(**{field: getattr(room, field) for field in RULE_FIELDS})

    def as_dict(self) -> dict[str, Any]:
        return {field: getattr(self, field) for field in RULE_FIELDS}
