"""An arena's channel-layer messages, registered on the bus (:mod:`live.messages`): queued by
:mod:`tournaments.events`, heard by the arena's sockets (``tournaments.realtime.socket``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from live.messages import Message, kind


@kind
@dataclass(frozen=True, slots=True)
class TournamentChanged(Message):
    """An arena changed: its pages look again."""

    TYPE: ClassVar[str] = "tournament.changed"


@kind
@dataclass(frozen=True, slots=True)
class TournamentPaired(Message):
    """A player of an arena was paired: their game is ``game`` in room ``code``."""

    TYPE: ClassVar[str] = "tournament.paired"
    code: str
    game: str
