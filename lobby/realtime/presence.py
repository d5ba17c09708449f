"""This process's side of presence: its heartbeat, the sockets it holds, and the spectator counts it
has made stale. One :class:`Presence` per event loop (one per server process in production), part of
the loop's runtime and run by its ticker (:mod:`lobby.realtime.ticker`).

- **Liveness without a database write per ping.** Each socket's last frame is kept in memory; a socket
  silent for ``PING_TIMEOUT_SECONDS`` has its connection closed (its seat shows disconnected) until it
  speaks again. The process renews one heartbeat row every few
  seconds; if it lapses (the process was killed, or hung), another process sweeps its connections
  (:func:`lobby.rooms.connections.processes_sweep`). A process that finds it was swept registers again under a
  new id and opens every socket it holds anew.
- **Spectators coalesced.** A join or leave of a spectator does not bump the room; it marks the room's
  count stale here, and the count is refreshed (one version bump and snapshot for the room) at once if
  the room was not refreshed in the last ``COALESCE_SECONDS``, else when that time is up. So 300 people
  joining a room within a few seconds cost a handful of room frames per connection, not one per join.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from typing import Protocol

from django.conf import settings
from django.utils import timezone

from lobby.realtime.offload import offload
from lobby.rooms import connections

log = logging.getLogger(__name__)

# At most one spectator-count refresh per room per process in this many seconds.
COALESCE_SECONDS = 1.0
# The heartbeat is renewed this often (a quarter of the lapse, so three may be late before it lapses).
MAX_BEAT_SECONDS = 5.0
SWEEP_EVERY_SECONDS = 5.0


class Held(Protocol):
    """A socket this process holds (a room consumer)."""

    code: str
    channel_name: str
    heard_at: float  # loop time of its last frame

    async def expire(self) -> None:
        """Its client went silent: its connection counts as closed until it speaks again."""

    async def reopen(self, process: str) -> None:
        """Open the connection again under the process id ``process`` (this process was swept)."""


def new_process_id() -> str:
    """An id for this process's heartbeat: host and pid to read in logs, and a random part, so a
    restarted process (or one registering again after a sweep) never reuses an old id."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"


def beat_every() -> float:
    return min(MAX_BEAT_SECONDS, settings.PING_TIMEOUT_SECONDS / 4)


class Presence:
    """One event loop's heartbeat, sockets and stale spectator counts (see the module docstring)."""

    def __init__(self) -> None:
        self.process = new_process_id()
        self.held: dict[str, Held] = {}
        self.registered: asyncio.Future[None] | None = None
        self.last_beat = 0.0
        self.last_sweep = 0.0
        self.refreshed_at: dict[str, float] = {}
        self.pending: dict[str, asyncio.TimerHandle | asyncio.Task[None]] = {}
        self.unclosed: set[str] = set()  # channels whose closed socket is still recorded (a failed clean-up)

    # --- the process's heartbeat ---------------------------------------------------------------------
    async def ready(self) -> str:
        """This process's id, once its heartbeat row exists (a connection may not be stored before)."""
        if self.registered is None:
            self.registered = asyncio.get_running_loop().create_future()
            try:
                await offload(connections.process_register)(process=self.process, now=timezone.now())
            except BaseException as exc:
                self.registered.set_exception(exc)
                self.registered.exception()  # retrieved: the next caller retries
                self.registered = None
                raise
            self.last_beat = asyncio.get_running_loop().time()
            self.registered.set_result(None)
        await asyncio.shield(self.registered)
        return self.process

    async def tick(self) -> None:
        """Called by the ticker every tick: renew the heartbeat, close silent sockets, and sweep the
        connections of dead processes, each at its own pace."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        if self.registered is not None and self.registered.done() and now - self.last_beat >= beat_every():
            self.last_beat = now
            alive = await offload(connections.process_beat)(process=self.process, now=timezone.now())
            if not alive:
                await self._register_again()
        if now - self.last_sweep >= SWEEP_EVERY_SECONDS:
            self.last_sweep = now
            await self.close_unclosed()
            await self.expire_silent(now=now)
            await offload(connections.processes_sweep)(now=timezone.now())

    async def _register_again(self) -> None:
        """This process was swept (it stalled past the lapse): a new id, and every socket opened anew."""
        log.warning("presence: process %s was swept; registering again", self.process)
        self.process = new_process_id()
        self.registered = None
        process = await self.ready()
        for held in list(self.held.values()):
            try:
                await held.reopen(process)
            except Exception:
                log.exception("presence: could not reopen %s", held.channel_name)

    async def expire_silent(self, *, now: float) -> None:
        """Close the connections of the sockets silent at loop time ``now`` for longer than the ping
        timeout (their seats show disconnected until they speak again)."""
        silent = [h for h in self.held.values() if now - h.heard_at > settings.PING_TIMEOUT_SECONDS]
        # (expire() of one already silent does nothing)
        for held in silent:
            try:
                await held.expire()
            except Exception:
                log.exception("presence: could not close silent %s", held.channel_name)

    def close_later(self, channel_name: str) -> None:
        """A closed socket's connection could not be recorded as closed: retry it every sweep."""
        self.unclosed.add(channel_name)

    async def close_unclosed(self) -> None:
        """Retry recording the close of the sockets whose clean-up failed."""
        for channel_name in list(self.unclosed):
            try:
                await offload(connections.connection_close)(channel_name=channel_name, now=timezone.now())
            except Exception:
                log.warning("presence: closing %s failed again; retrying later", channel_name, exc_info=True)
                continue
            self.unclosed.discard(channel_name)

    # --- sockets held --------------------------------------------------------------------------------
    def hold(self, held: Held) -> None:
        self.held[held.channel_name] = held

    def release(self, held: Held) -> None:
        self.held.pop(held.channel_name, None)

    # --- spectator counts ------------------------------------------------------------------------------
    def spectators_changed(self, code: str) -> None:
        """Someone joined or left room ``code`` as a spectator: refresh its count, coalesced."""
        if code in self.pending:
            return
        loop = asyncio.get_running_loop()
        wait = self.refreshed_at.get(code, -COALESCE_SECONDS) + COALESCE_SECONDS - loop.time()
        if wait <= 0:
            self.pending[code] = loop.create_task(self._refresh(code))
        else:
            self.pending[code] = loop.call_later(wait, self._start_refresh, code)

    def _start_refresh(self, code: str) -> None:
        self.pending[code] = asyncio.get_running_loop().create_task(self._refresh(code))

    async def _refresh(self, code: str) -> None:
        loop = asyncio.get_running_loop()
        try:
            await offload(connections.room_refresh_spectators)(code=code, now=timezone.now())
        except Exception:
            log.exception("presence: could not refresh the spectators of room %s", code)
        finally:
            self.pending.pop(code, None)
            self.refreshed_at[code] = loop.time()
            self._forget_old(loop.time())

    def _forget_old(self, now: float) -> None:
        if len(self.refreshed_at) > 1000:
            self.refreshed_at = {c: t for c, t in self.refreshed_at.items() if now - t < COALESCE_SECONDS}

    async def settle(self) -> None:
        """Run every pending spectator refresh now (tests; a process stopping)."""
        for code, pending in list(self.pending.items()):
            if isinstance(pending, asyncio.TimerHandle):
                pending.cancel()
                self._start_refresh(code)
        tasks = [p for p in self.pending.values() if isinstance(p, asyncio.Task)]
        await asyncio.gather(*tasks, return_exceptions=True)

    async def stop(self) -> None:
        """Drop what is pending (the loop is closing)."""
        for pending in self.pending.values():
            pending.cancel()
        tasks = [p for p in self.pending.values() if isinstance(p, asyncio.Task)]
        await asyncio.gather(*tasks, return_exceptions=True)
        self.pending.clear()
