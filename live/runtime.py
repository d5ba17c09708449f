"""One runtime per event loop (one per server process in production): everything live that the loop runs.

A :class:`Runtime` owns the loop's outbox (events to the channel layer, in commit order) and the loop
services the apps register (``LOOP_SERVICES``, each app's ``AppConfig.ready``): the lobby's presence,
ticker, matchmaker and lists (``lobby.realtime.loop.LobbyLoop``), the arenas' loop, the challenge sweep,
the mail loop, the correspondence loop. It is made on first use in its loop and started by the first
request or socket (``config.asgi`` calls :func:`ensure_running`). A socket reaches its loop's service of
a type with :meth:`Runtime.service` (a dictionary's lookup once found).

:func:`deliver` is the one delivery path of the server: :mod:`live.events` hands it every event a
committed transaction queued (it is registered there by ``live.apps``). From a worker thread of a
running server it crosses into the loop that handed the thread its work; anywhere else (a script, a
synchronous test, a worker thread of a server whose loop has stopped) it sends at once, blocking.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
from collections.abc import Callable
from typing import Any, Protocol, TypeVar, cast, runtime_checkable

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer

from common.hooks import Registry
from live import events
from live.messages import Message, encode
from live.outbox import Outbox, send_now

log = logging.getLogger(__name__)
S = TypeVar("S")


class LoopService(Protocol):
    """A task of an app that runs in every event loop, started and stopped with the loop's runtime."""

    def start(self) -> None:
        """Start (or restart, after a failure) in the running loop."""
        ...

    async def stop(self) -> None: ...


@runtime_checkable
class Hearer(Protocol):
    """A loop service that hears the signals (:class:`live.events.Signal`) of the types in ``hears``."""

    hears: tuple[type[events.Signal], ...]

    def hear(self, signal: events.Signal) -> None:
        """Act on ``signal`` (in the loop's thread)."""
        ...

    def covers(self, signal: events.Signal) -> bool:
        """Whether a signal heard earlier and not yet acted on covers ``signal`` too (read from any
        thread): then the loop is not woken for it."""
        ...


# Factories of the loop services, registered at start-up by the apps (an AppConfig.ready); each runtime
# calls each one once, with itself, when it is made, and starts them in this order (stops them in reverse).
LOOP_SERVICES: Registry[Callable[[Runtime], LoopService]] = Registry("loop services")


class Runtime:
    """One event loop's outbox and loop services (see the module docstring)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.outbox = Outbox()
        # The ToGroupSoon messages waiting, by group.
        self._soon: dict[str, tuple[asyncio.TimerHandle, Message]] = {}
        self.services: list[LoopService] = [factory(self) for factory in LOOP_SERVICES]
        self._by_type: dict[type[Any], LoopService] = {}  # service(): each type's, once found
        self.hearers: dict[type[events.Signal], Hearer] = {}
        for service in self.services:
            if isinstance(service, Hearer):
                for kind in service.hears:
                    self.hearers[kind] = service
        self.started = False

    def service(self, kind: type[S]) -> S:
        """This loop's service of type ``kind`` (made by a factory in ``LOOP_SERVICES``).

        Raises:
            LookupError: no such service is registered.
        """
        found = self._by_type.get(kind)
        if found is None:
            for service in self.services:
                if isinstance(service, kind):
                    found = self._by_type[kind] = service
                    break
            else:
                raise LookupError(f"no loop service {kind.__name__} is registered")
        return cast(S, found)

    @property
    def running(self) -> bool:
        return self.started

    def start(self) -> None:
        """Start (or restart, after a failure) every loop service in this loop."""
        for service in self.services:
            service.start()
        self.started = True

    async def stop(self) -> None:
        """Stop every service, drop what is pending, and send what waits in the outbox."""
        self.started = False
        for service in reversed(self.services):
            try:
                await service.stop()
            except Exception:  # one service failing to stop must not keep the others running
                log.exception("could not stop the loop service %r", service)
        for group, (handle, message) in list(self._soon.items()):  # sent now rather than lost
            handle.cancel()
            self.outbox.put(group, encode(message))
        self._soon.clear()
        await self.outbox.flush()

    def _send_soon(self, group: str) -> None:
        _, message = self._soon.pop(group)
        self.outbox.put(group, encode(message))

    def receive(self, event: events.Event) -> None:
        """Take one committed event (in the loop's thread): its message is encoded here, once for all its
        targets."""
        match event:
            case events.ToGroup(group=group, message=message):
                self.outbox.put(group, encode(message))
            case events.ToSockets(channels=channels, message=message):
                encoded = encode(message)
                for channel in channels:
                    self.outbox.put(channel, encoded, group=False)
            case events.ToGroupSoon(group=group, message=message, delay=delay):
                if group not in self._soon:
                    self._soon[group] = (self.loop.call_later(delay, self._send_soon, group), message)
            case events.Signal():
                hearer = self.hearers.get(type(event))
                if hearer is not None:
                    hearer.hear(event)


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

    Messages to groups and sockets go through the outbox of the loop that handed this thread its work, so
    each target hears them in commit order. A signal concerns every started runtime of the process (one
    in production) that hears its type.
    """
    if not isinstance(event, events.Signal):
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
        hearer = runtime.hearers.get(type(event))
        if hearer is None:
            continue
        if hearer.covers(event):
            told = True  # what it heard before, not yet acted on, covers this one: no wake-up of the loop for it
            continue
        with contextlib.suppress(RuntimeError):  # a loop closing right now
            runtime.loop.call_soon_threadsafe(hearer.hear, event)
            told = True
    if not told:
        instead = event.unheard()
        if instead is not None:
            _send_blocking(instead)


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
    """Send at once from a thread with no server loop (a script, a synchronous test), or whose server loop
    no longer runs: a stopping server's worker thread finishing a socket's last database work after the
    loop stopped, which ``async_to_sync`` would hand to that loop and wait on for ever (the process then
    hung at exit, joining the thread, until its SIGKILL); it sends on a loop of its own instead."""
    layer = get_channel_layer()
    if layer is None:
        return
    message = encode(event.message)
    handed_by = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    send = async_to_sync(send_now, force_new_loop=handed_by is not None and not handed_by.is_running())
    if isinstance(event, events.ToGroup):
        send(layer, event.group, message)
        return
    for channel in event.channels:
        send(layer, channel, message, group=False)
