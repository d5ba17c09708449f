"""What a service has to tell once its transaction commits: the events, and the one outlet they leave by.

A service changes the database in one transaction and, through :func:`on_commit`, queues what its change
means for the sockets: a message to a channel-layer group (a room's, an arena's, a player's pages'), to
some sockets by channel name, or to a group at most once in a while; or a :class:`Signal` to the loops of
the process (a feed to refresh, a ticker to wake). Nothing is sent before the commit
(``transaction.on_commit``), and everything is handed to one delivery function, registered at start-up
(:func:`live.runtime.deliver`, by ``live.apps``): it takes the event to the server loop's outbox, which
sends each target's events in commit order.

The messages are :mod:`live.messages`' dataclasses (encoded for the channel layer there, when the runtime
takes them). Each app keeps its own ``*_on_commit`` helpers, which build its messages and queue them here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction

from live.messages import Message


@dataclass(frozen=True, slots=True)
class ToGroup:
    """A message for every socket of a channel-layer group (a room's, the lobby's)."""

    group: str
    message: Message


@dataclass(frozen=True, slots=True)
class ToSockets:
    """A message for each of these sockets, by channel name, in whatever process holds them."""

    channels: tuple[str, ...]
    message: Message


@dataclass(frozen=True, slots=True)
class ToGroupSoon:
    """A message for a group that may wait a little: each process sends it at most once per ``delay``
    seconds per group (the first one queued in that time; use it for "something changed, look again")."""

    group: str
    message: Message
    delay: float


@dataclass(frozen=True, slots=True)
class Signal:
    """The base of the events for the loops of the process rather than for sockets: every started runtime
    of the process hands one to the loop service that hears its type (``live.runtime.Hearer``)."""

    def unheard(self) -> ToGroup | None:
        """What to send at once instead when no loop of this process hears it (None: nothing)."""
        return None


Event = ToGroup | ToSockets | ToGroupSoon | Signal
Deliver = Callable[[Event], None]


_delivery: list[Deliver] = []  # the one registered delivery (a list: set once, read from any thread)


def deliver_with(deliver: Deliver) -> None:
    """Register the function that takes every committed event to the sockets (once, at start-up)."""
    _delivery[:] = [deliver]


def deliver(event: Event) -> None:
    """Hand ``event`` to the registered delivery now (an on-commit callback, or a caller outside any
    transaction that has nothing to wait for).

    Raises:
        RuntimeError: nothing registered a delivery (Django's app registry is not ready).
    """
    if not _delivery:
        raise RuntimeError("no event delivery is registered: live.apps registers it at start-up")
    _delivery[0](event)


def on_commit(event: Event) -> None:
    """Deliver ``event`` once the current transaction commits (at once outside a transaction)."""
    transaction.on_commit(lambda: deliver(event))
