"""A socket's messages reach their handlers with no task made for each (``live.socket``: one receive loop
over the socket's one inbox, on both of the project's layers, ``config.channel_layer`` and
``config.local_layer``), where Channels' consumer loop makes a task and an ``asyncio.wait`` for every
message; and a database call (``live.offload``) has the caller's language and log fields in its thread,
and hands back what it changes there, as the sockets rely on (a socket reading its player's preference
activates their language for the rest of its message)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.utils import translation

from common import logcontext
from config.inbox import Inbox
from live import offload as offload_module
from live.offload import offload
from live.socket import Socket

# A disconnect closes stale connections (Channels' websocket_disconnect); the calls below use the database.
pytestmark = pytest.mark.django_db(transaction=True)

MESSAGES = 40


class Notes(Socket):
    """A socket in one group, sending each note it hears on to its client."""

    groups = ["dispatch-notes"]

    async def connect(self) -> None:
        await self.accept()

    async def dispatch_note(self, message: dict[str, Any]) -> None:
        await self.send(text_data=message["text"])


class Tasks:
    """The loop's task factory, counting the tasks made while it is installed."""

    def __init__(self) -> None:
        self.made = 0

    def __call__(self, loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any],
                 **kwargs: Any) -> asyncio.Task[Any]:
        self.made += 1
        return asyncio.Task(coro, loop=loop, **kwargs)


async def _tasks_for_notes(receive_of: Any) -> int:
    """Tasks made while a socket of :class:`Notes` hears MESSAGES group sends and sends each on."""
    frames: Inbox[dict[str, Any]] = Inbox()
    sent: Inbox[dict[str, Any]] = Inbox()

    async def send(message: dict[str, Any]) -> None:
        sent.put_nowait(message)

    scope = {"type": "websocket", "path": "/ws/notes/", "headers": [], "query_string": b""}
    served = asyncio.create_task(Notes.as_asgi()(scope, receive_of(frames), send))
    frames.put_nowait({"type": "websocket.connect"})
    async with asyncio.timeout(30):
        assert (await sent.get())["type"] == "websocket.accept"
    layer = get_channel_layer()
    loop = asyncio.get_running_loop()
    tasks = Tasks()
    loop.set_task_factory(tasks)
    try:
        for number in range(MESSAGES):
            await layer.group_send("dispatch-notes", {"type": "dispatch.note", "text": str(number)})
        async with asyncio.timeout(30):
            texts = [(await sent.get())["text"] for _ in range(MESSAGES)]
    finally:
        loop.set_task_factory(None)
    assert texts == [str(number) for number in range(MESSAGES)]  # each once, in order
    frames.put_nowait({"type": "websocket.disconnect", "code": 1000})
    async with asyncio.timeout(30):
        await served
    return tasks.made


async def test_a_socket_makes_no_task_for_a_message_it_handles():
    assert await _tasks_for_notes(lambda frames: frames.get) == 0


async def test_channels_own_loop_would_make_one_for_each():
    """What the count above tells apart: a receive that is no queue's get (Channels' loop serves it)."""

    def channels_receive(frames: Inbox[dict[str, Any]]) -> Any:
        async def receive() -> dict[str, Any]:
            return await frames.get()
        return receive

    assert await _tasks_for_notes(channels_receive) >= MESSAGES


def _bind_game() -> None:
    logcontext.bind(game="g-48")


@pytest.mark.parametrize("threads", [1, 2])
async def test_a_database_call_has_the_callers_language_and_hands_back_what_it_changes(settings, monkeypatch, threads):
    settings.DB_THREADS = threads
    lanes: dict[str, Any] = {}
    monkeypatch.setattr(offload_module, "_executors", lanes)  # a pool of this test's own, if any
    translation.activate("fr")
    try:
        assert await offload(translation.get_language)() == "fr"
        await offload(translation.activate)("de")  # a socket reading its player's preference does this
        assert translation.get_language() == "de"
        await offload(_bind_game)()
        assert logcontext._vars["game"].get() == "g-48"
    finally:
        translation.deactivate()
        logcontext._vars["game"].set(None)
        for executor in lanes.values():
            executor.shutdown(wait=True)


async def test_one_database_thread_is_channels_one_thread(settings):
    """DB_THREADS 1 (SQLite): the calls run where Channels' ``database_sync_to_async`` runs them, asgiref's
    one thread, so that the process has one SQLite writer still."""
    settings.DB_THREADS = 1
    asgiref_thread = await sync_to_async(threading.get_ident, thread_sensitive=True)()
    assert await offload(threading.get_ident)() == asgiref_thread != threading.get_ident()
