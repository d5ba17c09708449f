"""The scaffolding of a loop service's task: a step called with the time every so often (:func:`run_every`:
the arcade sweep), or when there is work (:class:`Waker`: the arenas', the challenge sweep, the
correspondence loop, quick pairing's waves, the lobby's ticker, the mail loop; the services with one such
task are a :class:`WakerService`); a step that fails logged and the next one run."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable
from datetime import UTC, datetime, timedelta
from typing import ClassVar, Protocol

from django.utils import timezone

from live.events import Signal

log = logging.getLogger(__name__)


class Step(Protocol):
    """One round of a loop, given the time."""

    def __call__(self, *, now: datetime) -> Awaitable[object]: ...


async def run_every(seconds: float, step: Step, *, name: str) -> None:
    """Call ``step`` with the time every ``seconds`` until cancelled; a step that fails is logged and the
    next one runs (a database hiccup must not stop pairing for good)."""
    while True:
        await asyncio.sleep(seconds)
        try:
            await step(now=timezone.now())
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("%s failed", name)


class DueStep(Protocol):
    """One round of a loop that knows when it has work next, given the time: that time (computed from the
    data), or None if it knows of none."""

    def __call__(self, *, now: datetime) -> Awaitable[datetime | None]: ...


# The shortest pause between two rounds of a Waker, whatever its step says (work due but not to be done
# yet: a lease another process holds).
MIN_GAP = timedelta(seconds=0.05)
_FAR = datetime.max.replace(tzinfo=UTC)


class Waker:
    """A loop service's task that runs ``step`` when there is work, not on a clock: at the time its last
    round said work falls due (computed from the data), when :meth:`wake` says work was announced (a
    :class:`live.events.Signal` heard by the service), and at the latest ``longest`` seconds after its last
    round (work another process announced to itself only, then died before doing it). An idle server's
    loops so sleep ``longest`` seconds at a time. A step that fails is logged and the next round runs
    ``longest`` later."""

    def __init__(self, step: DueStep, *, name: str, longest: float) -> None:
        self.step, self.name, self.longest = step, name, longest
        self.next_look = _FAR  # while a round runs: a wake meanwhile is heard (never covered)
        self.event: asyncio.Event | None = None
        self.task: asyncio.Task[None] | None = None
        self.rounds = 0  # rounds run (tests, the benchmark)

    def start(self, *, after: float = 0.0) -> None:
        """Run (again, replacing an earlier task) in the running loop: the first round ``after`` seconds from
        now (a loop just started leaves its first requests the database to themselves), or sooner if woken."""
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.event = asyncio.Event()
        self.next_look = timezone.now() + timedelta(seconds=after)
        self.task = asyncio.get_running_loop().create_task(self._run(), name=self.name)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
            self.task = None

    def wake(self, at: datetime | None = None) -> None:
        """Work falls due at ``at`` (None: now): run a round then, unless one is planned before (call in
        the loop's thread)."""
        at = at if at is not None else timezone.now()
        if at < self.next_look:
            self.next_look = at
            if self.event is not None:
                self.event.set()

    def covers(self, at: datetime | None = None) -> bool:
        """Whether a round is planned by ``at`` already (None: now), so that a wake for it is not needed
        (read from any thread: the planned time is replaced before each round reads the data)."""
        return self.next_look <= (at if at is not None else timezone.now()) and self.next_look is not _FAR

    async def _run(self) -> None:
        assert self.event is not None
        while True:
            self.event.clear()
            delay = (self.next_look - timezone.now()).total_seconds()
            if delay > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.event.wait(), delay)
                continue
            self.next_look = _FAR
            now = timezone.now()
            due: datetime | None = None
            try:
                due = await self.step(now=now)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("%s failed", self.name)
            self.rounds += 1
            latest = now + timedelta(seconds=self.longest)
            planned = latest if due is None else max(min(due, latest), timezone.now() + MIN_GAP)
            self.next_look = min(self.next_look, planned)



class WakerService:
    """A loop service (``live.runtime.LOOP_SERVICES``) whose one task is a :class:`Waker` running :meth:`step`:
    its first round ``first_after`` seconds after the loop starts, then when :meth:`step` says work falls due,
    when a signal of a type in ``hears`` is heard, and at the latest every ``longest`` seconds. Subclasses
    set the class attributes and write :meth:`step` (the challenge sweep, the mail, correspondence and arena
    loops)."""

    hears: tuple[type[Signal], ...] = ()
    name: ClassVar[str]
    longest: ClassVar[float]
    first_after: ClassVar[float] = 0.0

    def __init__(self) -> None:
        self.waker = Waker(self.step, name=self.name, longest=self.longest)

    @property
    def task(self) -> asyncio.Task[None] | None:
        return self.waker.task

    def start(self) -> None:
        self.waker.start(after=self.first_after)

    async def stop(self) -> None:
        await self.waker.stop()

    def hear(self, signal: Signal) -> None:
        self.waker.wake()

    def covers(self, signal: Signal) -> bool:
        """A signal heard always wakes the loop (a subclass whose round reads everything may say more)."""
        return False

    async def step(self, *, now: datetime) -> datetime | None:
        """One round; returns when the next is due (None: at the latest ``longest`` from now)."""
        raise NotImplementedError
