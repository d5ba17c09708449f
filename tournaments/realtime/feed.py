"""The standings kept fresh on every arena socket of this event loop, at most about twice a second.

An arena's change reaches the group of its sockets as ``tournament.changed`` (each process sends it at
most every ``tournaments.events.NUDGE_DELAY``); a socket that hears it calls
:meth:`StandingsFeed.refresh_soon` with its arena's id, and the arena is read once for the whole process
(not once per socket) and handed to every socket on its page, each of which adds its own row. It is the
one debounced feed (:class:`live.debounce.DebouncedFeed`, as the lobby's lists), keyed by arena:
while changes keep coming, reads are ``REFRESH_GAP`` apart, so a socket gets at most about two frames a
second however busy the arena is.
"""

from __future__ import annotations

import asyncio
from typing import Protocol

from live.debounce import REFRESH_GAP, DebouncedFeed
from tournaments.selectors import ArenaView, arena_view

STANDINGS_DELAY = 0.05


class ArenaReader(Protocol):
    async def arena_updated(self, view: ArenaView) -> None: ...


async def _send_view(reader: ArenaReader, view: ArenaView) -> None:
    await reader.arena_updated(view)


class StandingsFeed(DebouncedFeed[int, ArenaView, ArenaReader]):
    """This loop's reader of arenas for its arena sockets, one debounced read per arena (the key)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(loop, read=arena_view, send=_send_view, what="arena", delay=STANDINGS_DELAY,
                         gap=REFRESH_GAP)
