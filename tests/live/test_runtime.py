"""live.runtime: a loop's services, looked up by type; a signal heard by the service that hears its type,
not again while what it heard is pending, and sent at once instead when no loop of the process hears it."""

from __future__ import annotations

import asyncio
import os
import threading
from dataclasses import dataclass

import pytest
from asgiref.sync import SyncToAsync
from channels.layers import get_channel_layer

from common.hooks import Registry
from live import events, runtime
from live.messages import encode
from lobby.protocol.messages import LobbyChanged


@dataclass(frozen=True, slots=True)
class Ding(events.Signal):
    pass


@dataclass(frozen=True, slots=True)
class Shout(events.Signal):
    def unheard(self) -> events.ToGroup:
        return events.ToGroup("shouts", LobbyChanged())


class Bell:
    hears = (Ding,)

    def __init__(self, loop_runtime: runtime.Runtime) -> None:
        self.heard: list[events.Signal] = []
        self.pending = False
        self.starts = 0

    def start(self) -> None:
        self.starts += 1

    async def stop(self) -> None:
        pass

    def hear(self, signal: events.Signal) -> None:
        self.heard.append(signal)

    def covers(self, signal: events.Signal) -> bool:
        return self.pending


@pytest.fixture
def only_a_bell(monkeypatch):
    services = Registry("loop services")
    services.register(Bell)
    monkeypatch.setattr(runtime, "LOOP_SERVICES", services)


@pytest.mark.usefixtures("only_a_bell", "runtime_cleanup")
async def test_a_signal_reaches_the_service_that_hears_it_unless_it_is_pending():
    running = runtime.ensure_running()
    bell = running.service(Bell)
    assert running.service(Bell) is bell and bell.starts == 1
    assert runtime.ensure_running() is running and bell.starts == 1
    with pytest.raises(LookupError):
        running.service(int)
    runtime.deliver(Ding())
    await asyncio.sleep(0)
    assert bell.heard == [Ding()]
    bell.pending = True  # what it heard is not acted on yet: the next one is covered by it
    runtime.deliver(Ding())
    await asyncio.sleep(0)
    assert bell.heard == [Ding()]


@pytest.mark.usefixtures("only_a_bell")
async def test_a_signal_no_loop_hears_sends_what_it_says_instead():
    layer = get_channel_layer()  # Redis's layer hears a channel only on the loop that made it: this one
    channel = await layer.new_channel()
    await layer.group_add("shouts", channel)
    await asyncio.to_thread(runtime.deliver, Ding())  # heard by nobody, nothing instead
    await asyncio.to_thread(runtime.deliver, Shout())  # from a thread, as a request's work delivers
    assert await asyncio.wait_for(layer.receive(channel), 10) == encode(LobbyChanged())


@pytest.mark.usefixtures("only_a_bell")
async def test_a_worker_thread_whose_server_loop_stopped_still_sends_and_returns():
    """A stopping server's worker thread finishing a socket's last database work after its loop stopped
    (asgiref still names that loop as the one that handed it the work): it sends on a loop of its own,
    where it waited for ever for the stopped loop (the server then hung at exit until its SIGKILL)."""
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("shouts", channel)
    stopped = asyncio.new_event_loop()

    def finish_after_the_stop() -> None:
        local = SyncToAsync.threadlocal
        local.main_event_loop, local.main_event_loop_pid = stopped, os.getpid()
        runtime.deliver(Shout())

    worker = threading.Thread(target=finish_after_the_stop, daemon=True)  # daemon: a hang must not hold the run
    worker.start()
    try:
        await asyncio.to_thread(worker.join, 10)
        assert not worker.is_alive(), "the delivery waited on the stopped loop"
        assert await asyncio.wait_for(layer.receive(channel), 10) == encode(LobbyChanged())
    finally:
        stopped.close()
