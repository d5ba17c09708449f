"""An account's event streams' channel-layer messages, registered on the bus (:mod:`live.messages`):
queued by :mod:`bots.events`, heard by every open stream of the account (``bots.streams.base.Listener``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from live.messages import Message, kind


@kind
@dataclass(frozen=True, slots=True)
class AccountLine(Message):
    """A line for every event stream of an account (``bots.events``)."""

    TYPE: ClassVar[str] = "account.line"
    line: dict[str, Any]


@kind
@dataclass(frozen=True, slots=True)
class AccountStreamsEnd(Message):
    """End an account's open streams (``bots.events``): those opened with token ``token``, or all of them
    (``None``: the account was banned, closed or given a new password, ``reason``: ``players.services.EndedBy``)."""

    TYPE: ClassVar[str] = "account.streams_end"
    token: int | None = None
    reason: str = "banned"
