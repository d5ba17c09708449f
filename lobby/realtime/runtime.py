"""One runtime per event loop (one per server process in production): everything live that the loop runs.

A :class:`Runtime` owns the loop's outbox (events to the channel layer, in commit order), its presence
(heartbeat and held sockets), its ticker (timers, CPU moves, analyses), its matchmaker (quick-pairing
waves) and its lobby feed (the lobby's lists). It is made on first use in its loop and started by the
first request or socket (``config.asgi`` calls :func:`ensure_running`).

:func:`deliver` is the one delivery path of the server: :mod:`lobby.events` hands it every event a
committed transaction queued (it is registered there by ``lobby.apps``). From a worker thread of a
running server it crosses into the loop that handed the thread its work; anywhere else (a script, a
synchronous test) it sends at once, blocking.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
from collections.abc import Callable
from typing import Protocol, TypeVar

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer

from common.hooks import Registry
from lobby import events
from lobby.protocol import messages
from lobby.realtime.feed import LobbyFeed
from lobby.realtime.matchmaker import Matchmaker
from lobby.realtime.online import Online
from lobby.realtime.outbox import Outbox, send_now
from lobby.realtime.presence import Presence
from lobby.realtime.ticker import Ticker

log = logging.getLogger(__name__)
S = TypeVar("S")


class LoopService(Protocol):
    """A task of a higher app that runs in every event loop beside the runtime's own, started and
    stopped with it."""

    def start(self) -> None:
        """Start (or restart, after a failure) in the running loop."""
        ...

    async def stop(self) -> None: ...


# Factories of the loop services, registered at start-up by the apps above (an AppConfig.ready); each
# runtime calls each one once, with itself, when it is made.
LOOP_SERVICES: Registry[Callable[[Runtime], LoopService]] = Registry("loop services")


class Runtime:
    """One event loop's outbox, presence, ticker, matchmaker and lobby feed (see the module docstring)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.outbox = Outbox()
        self.presence = Presence()
        self.online = Online()
        self.feed = LobbyFeed(loop)
        self.matchmaker = Matchmaker()
        self.ticker = Ticker(self.presence)
        # The ToGroupSoon messages waiting, by group.
        self._soon: dict[str, tuple[asyncio.TimerHandle, messages.Message]] = {}
        self.services: list[LoopService] = [factory(self) for factory in LOOP_SERVICES]
        self.started = False

    def service(self, kind: type[S]) -> S:
        """This loop's service of type ``kind`` (made by a factory in ``LOOP_SERVICES``).

        Raises:
            LookupError: no such service is registered.
        """
        for service in self.services:
            if isinstance(service, kind):
                return service
        raise LookupError(f"no loop service {kind.__name__} is registered")

    @property
    def running(self) -> bool:
        return self.ticker.task is not None and not self.ticker.task.done()

    def start(self) -> None:
        """Start (or restart, after a failure) the ticker and the matchmaker in this loop."""
        self.ticker.start()
        self.matchmaker.start()
        self.online.start()
        for service in self.services:
            service.start()
        self.started = True

    async def stop(self) -> None:
        """Stop every task, drop what is pending, and send what waits in the outbox."""
        self.started = False
        for service in self.services:
            try:
                await service.stop()
            except Exception:  # one service failing to stop must not keep the others running
                log.exception("could not stop the loop service %r", service)
        await self.ticker.stop()
        await self.matchmaker.stop()
        await self.online.stop()
        await self.feed.close()
        for group, (handle, message) in list(self._soon.items()):  # sent now rather than lost
            handle.cancel()
            self.outbox.put(group, messages.encode(message))
        self._soon.clear()
        await self.presence.stop()
        await self.outbox.flush()

    def _send_soon(self, group: str) -> None:
        _, message = self._soon.pop(group)
        self.outbox.put(group, messages.encode(message))

    def receive(self, event: events.Event) -> None:
        """Take one committed event (in the loop's thread): its message is encoded here, once for all its
        targets."""
        match event:
            case events.ToGroup(group=group, message=message):
                self.outbox.put(group, messages.encode(message))
            case events.ToSockets(channels=channels, message=message):
                encoded = messages.encode(message)
                for channel in channels:
                    self.outbox.put(channel, encoded, group=False)
            case events.ToGroupSoon(group=group, message=message, delay=delay):
                if group not in self._soon:
                    self._soon[group] = (self.loop.call_later(delay, self._send_soon, group), message)
            case events.ListsChanged():
                self.feed.changed()
            case events.WakeUp():
                self.ticker.wake()


# Read from worker threads (deliver), written in the loops: guarded by the lock.
_lock = threading.Lock()
_runtimes: dict[asyncio.AbstractEventLoop, Runtime] = {}


def of_loop(loop: asyncio.AbstractEventLoop) -> Runtime:
    """``loop``'s runtime, made on first use (closed loops' runtimes are forgotten then)."""
    with _lock:
        runtime = _runtimes.get(loop)
        if runtime is None:
            for closed in [other for other in _runtimes if other.is_closed()]:
                del _runtimes[closed]
            runtime = _runtimes[loop] = Runtime(loop)
        return runtime


def of_this_loop() -> Runtime:
    """The running loop's runtime (made on first use, not started)."""
    return of_loop(asyncio.get_running_loop())


def ensure_running() -> Runtime:
    """The running loop's runtime, started if it is not running (every request and socket calls it)."""
    runtime = of_this_loop()
    if not runtime.running:
        runtime.start()
    return runtime


async def stop_this_loop() -> None:
    """Stop the running loop's runtime and forget it (tests call it before their loop closes)."""
    with _lock:
        runtime = _runtimes.pop(asyncio.get_running_loop(), None)
    if runtime is not None:
        await runtime.stop()


def _started() -> list[Runtime]:
    with _lock:
        return [runtime for loop, runtime in _runtimes.items() if runtime.started and not loop.is_closed()]


# --- the one delivery path -------------------------------------------------------------------------------
def deliver(event: events.Event) -> None:
    """Take a committed ``event`` to the sockets (called from any thread; see the module docstring).

    Room and socket messages go through the outbox of the loop that handed this thread its work, so
    each target hears them in commit order. The lobby's lists and the wake-ups concern every started
    runtime of the process (one in production).
    """
    if isinstance(event, events.ToGroup | events.ToSockets | events.ToGroupSoon):
        loop = _server_loop()
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: send it here instead
                loop.call_soon_threadsafe(_receive, loop, event)
                return
        _send_blocking(event if not isinstance(event, events.ToGroupSoon) else events.ToGroup(event.group,
                                                                                                event.message))
        return
    told = False
    for runtime in _started():
        if isinstance(event, events.ListsChanged) and runtime.feed.nudging:
            told = True  # its nudge, not yet sent, tells of this change too: no wake-up of the loop for it
            continue
        with contextlib.suppress(RuntimeError):  # a loop closing right now
            runtime.loop.call_soon_threadsafe(runtime.receive, event)
            told = True
    if not told and isinstance(event, events.ListsChanged):
        _send_blocking(events.ToGroup(events.LOBBY_GROUP, messages.LobbyChanged()))


def _receive(loop: asyncio.AbstractEventLoop, event: events.Event) -> None:
    of_loop(loop).receive(event)


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop that handed this worker thread its work (asgiref records it), if it still runs."""
    local = SyncToAsync.threadlocal
    loop: asyncio.AbstractEventLoop | None = getattr(local, "main_event_loop", None)
    if loop is None or getattr(local, "main_event_loop_pid", None) != os.getpid() or loop.is_closed():
        return None
    return loop


def _send_blocking(event: events.ToGroup | events.ToSockets) -> None:
    """Send at once from a thread with no server loop (a script, a synchronous test)."""
    layer = get_channel_layer()
    if layer is None:
        return
    message = messages.encode(event.message)
    if isinstance(event, events.ToGroup):
        async_to_sync(send_now)(layer, event.group, message)
        return
    for channel in event.channels:
        async_to_sync(send_now)(layer, channel, message, group=False)
