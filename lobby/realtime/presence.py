"""This process's side of room presence (the rows of ``lobby.rooms.connections``: which sockets are in a
room, a seat connected or not; not who is online for the friends list, ``lobby.realtime.online``): its
heartbeat, the sockets it holds, and the spectator counts it has made stale. One :class:`Presence` per
event loop (one per server process in production), part of the loop's lobby service
(:class:`lobby.realtime.loop.LobbyLoop`) and run by its ticker (:mod:`lobby.realtime.ticker`).

- **Liveness without a frame through the consumer.** A socket is alive while it is open: daphne's own
  websocket pings (``config.serve``) close a socket that stops answering them, so one gone silent or
  half-open counts as gone within ``PING_TIMEOUT_SECONDS`` (its seat shows disconnected). The process
  renews one heartbeat row every few seconds; if it lapses (the process was killed, or hung), another
  process sweeps its connections (:func:`lobby.rooms.connections.processes_sweep`). A process that finds
  it was swept registers again under a new id and opens every socket it holds anew.
- **Spectators coalesced.** A join or leave of a spectator does not bump the room; it marks the room's
  count stale here, and the count is refreshed (one version bump, and one small ``spectators`` frame to
  the room, not the whole room) at once if the room was not refreshed in the last ``COALESCE_SECONDS``,
  else when that time is up. So 300 people joining a room within a few seconds cost each connection its
  one room frame and a handful of counts, not a frame per join.
- **One lifecycle for whatever holds a room's connection.** :class:`RoomPresence` is a holder's (a room
  socket's, a bot's game stream's) presence in one room: in the room's group, recorded as a connection of
  this process, held here; and leaving all of it, with the close's record retried. Both holders use it,
  so a bot's seat is connected exactly as long as a page's would be.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from collections.abc import Callable
from typing import Protocol, TypeVar

from django.conf import settings
from django.utils import timezone

from common.layer import ChannelLayer
from common.logcontext import one_line
from live.offload import offload
from live.outbox import Outbox
from lobby.events import room_group
from lobby.rooms import connections
from players.models import Player

log = logging.getLogger(__name__)

# At most one spectator-count refresh per room per process in this many seconds.
COALESCE_SECONDS = 1.0
# The heartbeat is renewed this often (a quarter of the lapse, so three may be late before it lapses).
MAX_BEAT_SECONDS = 5.0
SWEEP_EVERY_SECONDS = 5.0
# Pauses before each new attempt to record a closed connection (a database blip must not leave the seat
# showing connected); all of them well within daphne's 10 s for a closed socket's clean-up.
RECORD_CLOSE_RETRY_DELAYS = (0.5, 2.0)

J = TypeVar("J")


class Held(Protocol):
    """A connection to a room this process holds (a room socket, a bot's game stream)."""

    code: str
    channel_name: str

    async def reopen(self, process: str) -> None:
        """Open the connection again under the process id ``process`` (this process was swept)."""


def new_process_id() -> str:
    """An id for this process's heartbeat: host and pid to read in logs, and a random part, so a
    restarted process (or one registering again after a sweep) never reuses an old id."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"


def beat_every() -> float:
    return min(MAX_BEAT_SECONDS, settings.PING_TIMEOUT_SECONDS / 4)


class Presence:
    """One event loop's room presence: its heartbeat, sockets and stale spectator counts (see the module
    docstring; who is online is :class:`lobby.realtime.online.Online`)."""

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
        """Called by the ticker each round (at the latest when :meth:`due_in` says): renew the heartbeat,
        retry failed clean-ups, and sweep the connections of dead processes, each at its own pace."""
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
            await offload(connections.processes_sweep)(now=timezone.now())

    def due_in(self) -> float:
        """Seconds until :meth:`tick` has something to do: the next heartbeat (once registered) or sweep."""
        now = asyncio.get_running_loop().time()
        due = self.last_sweep + SWEEP_EVERY_SECONDS
        if self.registered is not None and self.registered.done():
            due = min(due, self.last_beat + beat_every())
        return max(0.0, due - now)

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


class RoomPresence:
    """``holder``'s presence in its room (see the module docstring): :meth:`join`, :meth:`leave`, and
    :meth:`record` for the connection's row (also when ``holder`` reopens it after a sweep)."""

    def __init__(self, holder: Held, *, presence: Presence, outbox: Outbox, layer: ChannelLayer) -> None:
        self.holder, self.presence, self.outbox, self.layer = holder, presence, outbox, layer
        self.joined = False  # in the room's group, with a connection row: leave() undoes it

    def record(self, player: Player | None, process: str) -> connections.Opened:
        """Record the connection (again) under ``process``; in the database thread."""
        return connections.connection_open(code=self.holder.code, channel_name=self.holder.channel_name,
                                           player=player, process=process, now=timezone.now())

    async def join(self, open_connection: Callable[[str], J]) -> J:
        """Join the room's group, then run ``open_connection(process)`` in the database thread: it calls
        :meth:`record` and reads whatever else the holder sends first, in the same trip. From then on the
        connection is held (and swept with this process), until :meth:`leave`.

        The group comes first: whatever commits after the connection's snapshot is read reaches the
        holder (what committed before is older than the snapshot, and skipped by its version).

        Raises:
            Exception: whatever ``open_connection`` raised (``Refused``: no_room, room_closed, banned);
                the group is joined and the connection not held.
        """
        process = await self.presence.ready()
        await self.layer.group_add(room_group(self.holder.code), self.holder.channel_name)
        opened = await offload(open_connection)(process)
        self.joined = True
        self.presence.hold(self.holder)
        return opened

    def shown(self, opened: connections.Opened) -> None:
        """Once the holder sent what ``opened`` shows: a spectator's arrival refreshes the room's count."""
        if opened.spectator:
            self.presence.spectators_changed(self.holder.code)

    async def leave(self) -> None:
        """Undo the join, once: this process's hold, the room's group, and the connection's record (a
        seat whose player has no other connection shows disconnected). A no-op if never joined. Never
        raises: what cannot be undone is logged, and left to expire (the group membership) or to the
        presence loop (the record)."""
        if not self.joined:
            return
        self.joined = False
        self.presence.release(self.holder)
        try:
            await self.layer.group_discard(room_group(self.holder.code), self.holder.channel_name)
        except Exception as exc:  # Redis is gone: the membership went with it, or expires there
            log.warning("could not leave the room's group: %s", one_line(exc))
        await self._record_close()
        # Return once the room has been told of the close (the outbox sends from a task of the loop's own,
        # which outlives the holder): whoever waits for the holder to end sees the others told.
        with contextlib.suppress(Exception):
            await self.outbox.flush()

    async def _record_close(self) -> None:
        """Record that the connection closed, again after each of RECORD_CLOSE_RETRY_DELAYS if it fails (the
        holder is gone: until it is recorded the seat shows connected, and a disconnected player's grace
        period has not begun); if every attempt fails, this process's presence loop keeps retrying."""
        delays = RECORD_CLOSE_RETRY_DELAYS
        attempts = len(delays) + 1
        channel_name, code = self.holder.channel_name, self.holder.code
        for attempt, delay in enumerate((*delays, None), start=1):
            try:
                spectator_left = await offload(connections.connection_close)(
                    channel_name=channel_name, now=timezone.now()
                )
            except Exception as exc:
                then = "the presence loop will" if delay is None else f"retrying in {delay:g} s"
                log.warning("could not record the closed socket (attempt %d of %d; %s): %s", attempt, attempts,
                            then, one_line(exc), exc_info=exc if log.isEnabledFor(logging.DEBUG) else None)
                if delay is None:
                    self.presence.close_later(channel_name)
                    return
                await asyncio.sleep(delay)
                continue
            if spectator_left:
                self.presence.spectators_changed(code)
            return
