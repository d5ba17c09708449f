"""config.http: HTTP requests on a few kept threads (with a way out when all are held), their PostgreSQL
connections kept, and a request served in one hop (its signals, the middleware chain, the view)."""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.sync import SyncToAsync, sync_to_async
from channels.testing import HttpCommunicator
from django.core.handlers.asgi import ASGIHandler
from django.db.backends.signals import connection_created

import config.asgi  # noqa: F401  (connects close_request_connections, as serving does)
from config import http
from config.http import OneHopHandler, ThreadedHttp

HOST = [(b"host", b"localhost")]


class Recorder:
    """An ASGI app whose sync part records the thread it ran on, and can be held there until released."""

    def __init__(self) -> None:
        self.threads: list[str] = []
        self.held = threading.Event()
        self.entered = threading.Semaphore(0)
        self.hold = False

    def _work(self) -> str:
        self.threads.append(threading.current_thread().name)
        self.entered.release()
        if self.hold:
            assert self.held.wait(10)
        return threading.current_thread().name

    async def __call__(self, scope, receive, send) -> None:
        name = await sync_to_async(self._work, thread_sensitive=True)()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": name.encode()})


async def get(app, path: str = "/") -> tuple[int, bytes]:
    response = await HttpCommunicator(app, "GET", path, headers=HOST).get_response(timeout=10)
    return response["status"], response["body"]


async def new_guest(app, before_post=lambda: None) -> int:
    """A new device's GET /api/session (its CSRF cookie), then POST /api/session (a player and a session
    written): the POST's status. ``before_post`` is called between the two."""
    response = await HttpCommunicator(app, "GET", "/api/session", headers=HOST).get_response(timeout=10)
    cookie = next(v for k, v in response["headers"] if k.lower() == b"set-cookie" and v.startswith(b"csrftoken="))
    token = cookie.split(b";")[0].split(b"=", 1)[1]
    body = b'{"name": "Ann"}'
    headers = [*HOST, (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
               (b"cookie", b"csrftoken=" + token), (b"x-csrftoken", token), (b"origin", b"http://localhost")]
    before_post()
    response = await HttpCommunicator(app, "POST", "/api/session", body, headers).get_response(timeout=10)
    return response["status"]


def test_at_least_one_thread():
    with pytest.raises(ValueError, match="HTTP_THREADS"):
        ThreadedHttp(Recorder(), 0)


async def test_requests_run_on_the_kept_threads_only():
    recorder = Recorder()
    app = ThreadedHttp(recorder, 2)
    for _ in range(6):
        assert (await get(app))[0] == 200
    await asyncio.gather(*(get(app) for _ in range(6)))
    assert len(recorder.threads) == 12
    assert set(recorder.threads) <= {"http-0_0", "http-1_0"}


async def test_a_request_finding_every_thread_held_runs_on_its_own_thread(monkeypatch):
    monkeypatch.setattr(http, "WAIT_SECONDS", 0.05)
    recorder = Recorder()
    recorder.hold = True
    app = ThreadedHttp(recorder, 2)
    held = [asyncio.ensure_future(get(app)) for _ in range(2)]  # two streams hold both kept threads
    for _ in range(2):
        assert await asyncio.to_thread(recorder.entered.acquire, timeout=10)
    recorder.hold = False
    status, thread = await get(app)  # served while both are still held
    assert status == 200 and thread.decode() == "http-own_0"  # a thread of its own, named apart
    assert not any(task.done() for task in held)
    recorder.held.set()
    answers = await asyncio.gather(*held)
    assert sorted(body.decode() for _, body in answers) == ["http-0_0", "http-1_0"]
    # The kept threads are free again: the next request is served on one of them.
    assert (await get(app))[1].decode().startswith("http-")


def hops_of_one_request(app, monkeypatch) -> int:
    """How many times one POST /api/session (a new device) goes from the event loop to a thread."""
    calls = []
    original = SyncToAsync.__call__

    async def counted(self, *args, **kwargs):
        calls.append(getattr(self.func, "__name__", repr(self.func)))
        return await original(self, *args, **kwargs)

    async def one() -> None:
        assert await new_guest(app, calls.clear) == 201

    with monkeypatch.context() as patch:
        patch.setattr(SyncToAsync, "__call__", counted)
        asyncio.run(one())
    return len(calls)


@pytest.mark.django_db(transaction=True)
def test_the_middleware_chain_is_entered_in_one_hop(monkeypatch):
    stock, ours = hops_of_one_request(ASGIHandler(), monkeypatch), hops_of_one_request(OneHopHandler(), monkeypatch)
    # Django's request_started signal, the chain, the view and the response's close in one: one hop,
    # whatever the number of middleware. The stock handler hops for the signal, at every boundary between
    # async-capable and sync-only middleware, for the view, the render and the close: how many depends on
    # the chain's order (6 with the input check, a sync-only middleware, second), never fewer than three.
    assert ours == 1
    assert stock > ours + 3


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_kept_threads_keep_their_postgresql_connections(settings):
    opened = []

    def count(sender, connection, **kwargs):
        opened.append(threading.current_thread().name)

    app = ThreadedHttp(OneHopHandler(), settings.HTTP_THREADS)  # config.asgi's, without its runtime

    async def requests() -> None:
        for _ in range(8):
            assert await new_guest(app) == 201
        assert await asyncio.gather(*(new_guest(app) for _ in range(8))) == [201] * 8

    connection_created.connect(count)
    try:
        asyncio.run(requests())
    finally:
        connection_created.disconnect(count)
    # Sixteen requests, on at most HTTP_THREADS threads that each opened one connection and kept it
    # (a thread per request, each with a connection opened and closed, was the way before).
    assert opened and len(opened) == len(set(opened)) <= settings.HTTP_THREADS
    assert all(name.startswith("http-") for name in opened)
