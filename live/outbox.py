"""Messages waiting for the channel layer in one event loop, sent in the order they were committed.

A service runs in a worker thread. Sending from there used to block that thread until the channel
layer answered, and every database call of the process waited behind it. Now a commit only hands the
message to its event loop's outbox and returns: the outbox sends in the background, in commit order
within each target (a room's group, one socket), all targets at once, so a client never sees a room's
events out of order because of it.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from channels.layers import get_channel_layer

from common import metrics
from common.layer import ChannelLayer
from common.logcontext import one_line

log = logging.getLogger(__name__)


class Outbox:
    """One loop's pending messages, by target.

    ``put`` is called in the loop's thread. One drain task runs while there is something to send: it
    takes every target's pending messages, sends each target's in order, all targets at once, and
    repeats until nothing is left (then it ends, so a loop that closes leaves no task behind).
    """

    def __init__(self) -> None:
        self.pending: dict[tuple[bool, str], list[dict[str, Any]]] = {}
        self.task: asyncio.Task[None] | None = None

    def put(self, target: str, message: dict[str, Any], *, group: bool = True) -> None:
        """Queue ``message`` for the group ``target`` (or, ``group=False``, the channel ``target``)."""
        self.pending.setdefault((group, target), []).append(message)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._drain())

    async def _drain(self) -> None:
        layer: ChannelLayer | None = get_channel_layer()
        while self.pending:
            batch, self.pending = self.pending, {}
            if layer is None:
                continue
            if len(batch) == 1:  # the usual case: no task of its own for the one target
                [(key, messages)] = batch.items()
                await _send_in_order(layer, key, messages)
            else:
                await asyncio.gather(*(_send_in_order(layer, key, messages) for key, messages in batch.items()))

    async def flush(self) -> None:
        """Wait until everything put so far has been sent (a socket leaving, tests, a server shutting down).

        The drain task is shared by every socket of the loop: a waiter that is cancelled (daphne cancels a
        closed socket's handler that overruns its time) must not cancel it, and with it every room's
        messages still waiting to be sent.
        """
        while self.task is not None and not self.task.done():
            await asyncio.shield(self.task)


class SendOutage:
    """Whether the channel layer is refusing this process's sends (Redis is down): one warning when the
    first send fails, one line when a send works again, and nothing for each send in between (each is
    counted in ``fourinarow_channel_layer_send_failures_total``). A traceback per move, for as long as
    Redis is away, would bury the log. ``clock`` returns seconds (monotonic); tests inject their own.

    Shared by every event loop of the process (each sends through the same Redis), hence the lock.
    """

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.lock = threading.Lock()
        self.since: float | None = None  # when the first failing send of this outage failed
        self.failures = 0

    def failed(self, exc: Exception, *, kind: object, target: str) -> None:
        metrics.CHANNEL_LAYER_SEND_FAILURES.inc()
        with self.lock:
            self.failures += 1
            if self.since is not None:
                return
            self.since = self.clock()
        log.warning("could not send %s to %s: %s; not logged again until sends work (counted in "
                    "fourinarow_channel_layer_send_failures_total)", kind, target, one_line(exc),
                    extra={"room": _room_of(target)}, exc_info=exc if log.isEnabledFor(logging.DEBUG) else None)

    def succeeded(self) -> None:
        if self.since is None:  # the usual case: no lock taken
            return
        with self.lock:
            if self.since is None:
                return
            seconds, failures = self.clock() - self.since, self.failures
            self.since, self.failures = None, 0
        log.warning("the channel layer takes sends again, after %.1f s and %d sends not delivered", seconds, failures)


OUTAGE = SendOutage()


async def send_now(layer: ChannelLayer, target: str, message: dict[str, Any], *, group: bool = True) -> None:
    """Send one message to a group (or a channel); a failure is counted (and an outage logged, once:
    :class:`SendOutage`), never raised: a failed broadcast must not undo a committed change, and the
    clients re-sync when they reconnect."""
    try:
        if group:
            await layer.group_send(target, message)
        else:
            await layer.send(target, message)
    except Exception as exc:
        OUTAGE.failed(exc, kind=message.get("type"), target=target)
    else:
        OUTAGE.succeeded()


async def _send_in_order(layer: ChannelLayer, key: tuple[bool, str], messages: list[dict[str, Any]]) -> None:
    group, target = key
    for message in messages:
        await send_now(layer, target, message, group=group)


def _room_of(target: str) -> str | None:
    return target.removeprefix("room.") if target.startswith("room.") else None
