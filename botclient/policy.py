"""Which challenges a bot accepts: the rules it is given on the command line."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Policy:
    """``timers``: the turn timers accepted; ``rated``: ``any``, ``rated`` or ``casual``; ``only_from``:
    usernames accepted (empty: anyone); ``bots``, ``people``: whether bots, people may challenge;
    ``correspondence``: whether correspondence games (days per move, no turn timer) are accepted."""

    timers: frozenset[int] = frozenset({30, 60})
    rated: str = "any"
    only_from: frozenset[str] = field(default_factory=frozenset)
    bots: bool = True
    people: bool = True
    correspondence: bool = True

    def decline_reason(self, challenge: dict[str, Any]) -> str | None:
        """None to accept ``challenge`` (a challenge line's ``challenge``), else the reason to decline."""
        challenger = challenge["challenger"]
        is_bot = challenger.get("title") == "BOT"
        if self.only_from and str(challenger.get("username") or "").casefold() not in self.only_from:
            return "generic"
        if (is_bot and not self.bots) or (not is_bot and not self.people):
            return "generic"
        if challenge.get("days_per_move") is not None:
            if not self.correspondence:
                return "timer"
        elif challenge["turn_seconds"] not in self.timers:
            return "timer"
        if self.rated == "rated" and not challenge["ranked"]:
            return "rated"
        if self.rated == "casual" and challenge["ranked"]:
            return "casual"
        return None
