"""Each event loop's lobby: a service of its runtime (``live.runtime.LOOP_SERVICES``, registered by
``lobby.apps``) holding the loop's presence (heartbeat and held sockets), who is online, its ticker
(timers, CPU moves, analyses), its matchmaker (quick-pairing waves) and its lobby feed (the lobby's lists).

It hears the lobby's two signals (:mod:`lobby.events`): ``ListsChanged`` nudges the feed, ``WakeUp`` tells
the ticker when something falls due; and ``games.analyses.AnalysisQueued``, which has the ticker look for
an analysis to compute. A socket reaches it with :func:`lobby_loop` (the runtime's lookup by type, a dictionary's).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.analyses import AnalysisQueued
from live import runtime
from live.events import Signal
from lobby.events import ListsChanged, WakeUp
from lobby.realtime.feed import LobbyFeed
from lobby.realtime.matchmaker import Matchmaker
from lobby.realtime.online import Online
from lobby.realtime.presence import Presence
from lobby.realtime.ticker import Ticker

if TYPE_CHECKING:
    from live.outbox import Outbox


class LobbyLoop:
    """One event loop's presence, online players, ticker, matchmaker and lobby feed."""

    hears: tuple[type[Signal], ...] = (ListsChanged, WakeUp, AnalysisQueued)

    def __init__(self, loop_runtime: runtime.Runtime) -> None:
        self.outbox: Outbox = loop_runtime.outbox
        self.presence = Presence()
        self.online = Online()
        self.feed = LobbyFeed(loop_runtime.loop)
        self.matchmaker = Matchmaker()
        self.ticker = Ticker(self.presence)

    def start(self) -> None:
        """Start (or restart, after a failure) the ticker, the matchmaker and the online renewal."""
        self.ticker.start()
        self.matchmaker.start()
        self.online.start()

    async def stop(self) -> None:
        await self.ticker.stop()
        await self.matchmaker.stop()
        await self.online.stop()
        await self.feed.close()
        await self.presence.stop()

    def hear(self, signal: Signal) -> None:
        if isinstance(signal, ListsChanged):
            self.feed.changed()
        elif isinstance(signal, WakeUp):
            self.ticker.wake(signal.at)
        else:
            self.ticker.analysis_queued()

    def covers(self, signal: Signal) -> bool:
        # A nudge due and not yet sent tells of this change too (it reads nothing before it is sent); a
        # look at the deadlines planned by the time one falls due reads it then.
        if isinstance(signal, ListsChanged):
            return self.feed.nudging
        return isinstance(signal, WakeUp) and self.ticker.waker.covers(signal.at)


def lobby_loop() -> LobbyLoop:
    """The running loop's lobby service (its runtime made on first use, not started)."""
    return runtime.of_this_loop().service(LobbyLoop)
