"""The server that ``python -m config.serve`` runs: daphne, with its websocket pings set from ``PING_TIMEOUT_SECONDS``.

``python -m config.serve -b 127.0.0.1 -p 8000 config.asgi:application`` runs daphne's own command line
with these arguments and ``--ping-interval``, ``--ping-timeout`` and ``--websocket_connect_timeout``
(:data:`CONNECT_TIMEOUT_SECONDS`) unless given. Those pings prove a
socket alive: daphne sends one to a socket that has sent nothing for the interval, every browser and
websocket library answers it without the page's code, and a socket whose answer does not come within
the timeout is closed (its connection recorded as closed, its seat disconnected). Set as here, a socket
gone silent or half-open counts as gone within ``PING_TIMEOUT_SECONDS`` (for 4 s or more), and an idle
socket costs no frame through the consumer at all.

Each websocket's frames wait for its consumer in an :class:`config.inbox.Inbox` instead of daphne's
``asyncio.Queue`` (3 KiB less for every open socket); HTTP requests are served as daphne serves them, but
a response in several parts waits for its client to read (:func:`body_sent`: back-pressure).
What every handshake spent for nothing is not spent: autobahn's pretty-printed settings for a debug line
that is not written, and daphne's access line when it goes to ``/dev/null`` (as deployed).

An open websocket keeps only what it needs after its handshake (:class:`SlimWebSocketProtocol`,
:meth:`InboxServer.protocol_disconnected`): autobahn's settings are read from the protocol's class
instead of being copied onto every protocol, the handshake's request and response are dropped once the
socket is open, its send queue is a list, and the HTTP request it was upgraded from is let go (twisted's
transport otherwise keeps it, headers and all, for the socket's life). ``docs/benchmarks.md`` ("Issue
36", "Idle sockets") has what each of those saves.
"""

from __future__ import annotations

import asyncio
import inspect
import itertools
import logging
import os
import pprint
import sys
from functools import partial
from typing import Any

from autobahn.websocket import protocol as autobahn_protocol
from daphne.cli import CommandLineInterface
from daphne.http_protocol import WebRequest
from daphne.server import Server
from daphne.ws_protocol import WebSocketProtocol

from common import metrics
from common.asgi import Message, Scope
from config.inbox import Inbox

log = logging.getLogger(__name__)

# daphne looks at its sockets' pings every 2 seconds (daphne.server.Server.timeout_checker).
DAPHNE_CHECK_SECONDS = 2
# How long a websocket's handshake may wait for its application to accept it before daphne refuses it (403):
# daphne's 5 s refused sockets in a connect storm (every page of a restarted process reconnecting at once)
# while their accepts waited their turn on a busy loop; a queue that long is answered, however slowly.
CONNECT_TIMEOUT_SECONDS = 60
# How long a streamed response waits for a client that reads nothing before it drops the connection.
STALL_SECONDS = 60.0
# How long a stopping server waits for its sockets' handlers, then for its loop's services, to finish
# (within systemd's TimeoutStopSec, 15 s in deploy/).
STOP_STEP_SECONDS = 4.0


def ping_arguments(timeout: float) -> list[str]:
    """daphne's ping arguments for a socket to count as gone within ``timeout`` seconds of silence: the
    ping goes out at most interval + 2 s after the last frame, and its answer is awaited as long again
    (daphne takes whole seconds)."""
    each = max(1, int((timeout - DAPHNE_CHECK_SECONDS) // 2))
    return ["--ping-interval", str(each), "--ping-timeout", str(each)]


def arguments(argv: list[str], timeout: float) -> list[str]:
    """``argv`` with the ping arguments for ``timeout`` and the handshake's :data:`CONNECT_TIMEOUT_SECONDS`
    added, unless ``argv`` sets them itself."""
    added = [] if any(a.startswith(("--ping-interval", "--ping-timeout")) for a in argv) else ping_arguments(timeout)
    if not any(a.startswith("--websocket_connect_timeout") for a in argv):
        added += ["--websocket_connect_timeout", str(CONNECT_TIMEOUT_SECONDS)]
    return [*added, *argv]


class SendQueue(list[Any]):
    """autobahn's send queue (frames waiting for the transport, nearly always none): a list, where
    autobahn's ``deque`` allocates a block of 64 slots for every socket up front."""

    __slots__ = ()

    def popleft(self) -> Any:  # Any: autobahn's queued (data, sync) pairs
        return self.pop(0)


class SlimWebSocketProtocol(WebSocketProtocol):  # type: ignore[misc]  # daphne is untyped: its classes are Any
    """daphne's websocket protocol, keeping less for each open socket (see the module's text).

    autobahn copies its ~30 settings from the factory onto each protocol, unless the protocol has them
    already: :func:`slim_protocol` makes a subclass of this class for one factory, which holds them
    instead (copied from the factory when its first connection is made, after daphne has set them)."""

    configured = False  # the settings are on this class (set on the factory's subclass)

    def _connectionMade(self) -> None:
        cls = type(self)
        if not cls.configured:
            for name in self.CONFIG_ATTRS:
                value = getattr(self.factory, name)  # a function (perMessageCompressionAccept) stays one
                setattr(cls, name, staticmethod(value) if inspect.isfunction(value) else value)
            cls.configured = True
        super()._connectionMade()
        self.send_queue = SendQueue()

    def serverSend(self, content: str | bytes, binary: bool = False) -> None:
        """A frame the application sends, unless the socket is closing or closed: the client went between
        the consumer's decision and its send (a lobby socket closed right after its ``cancel``), and there
        is nobody to tell (autobahn raised ``Disconnected``, logged as the application's error)."""
        if self.state in (self.STATE_CLOSING, self.STATE_CLOSED):
            return
        super().serverSend(content, binary)

    def onOpen(self) -> None:
        super().onOpen()
        # The handshake is over: what it read and wrote goes (daphne keeps the request for its path).
        self.http_request_data = self.http_response_data = b""
        self.http_headers: dict[str, str] = {}
        self.request.headers = {}
        self.clean_headers: list[tuple[bytes, bytes]] = []


def slim_protocol() -> type[SlimWebSocketProtocol]:
    """A :class:`SlimWebSocketProtocol` class for one factory of its own (to hold that factory's settings)."""
    return type("SlimWebSocketProtocol", (SlimWebSocketProtocol,), {"__module__": __name__})


class InboxServer(Server):  # type: ignore[misc]  # daphne is untyped: its classes are Any
    """daphne, with an :class:`Inbox` for each websocket's frames, less kept for each open socket, and no
    access log at all when it would be written to ``/dev/null`` (as deployed: nginx keeps one), rather than
    each line formatted for nothing."""

    def __init__(self, *args: Any, action_logger: Any = None, **kwargs: Any) -> None:  # Any: daphne's
        if getattr(getattr(action_logger, "stream", None), "name", None) == os.devnull:
            action_logger = None
        super().__init__(*args, action_logger=action_logger, **kwargs)

    def run(self) -> None:
        from twisted.internet import reactor as installed

        reactor: Any = installed  # twisted types it as its bare interface; daphne installed asyncio's
        # Before the reactor stops (SIGTERM), beside daphne's own cancelling of every application.
        reactor.addSystemEventTrigger("before", "shutdown", self.stopping)
        super().run()

    def stopping(self) -> Any:  # Any: a twisted Deferred, untyped
        """The reactor is stopping: once the sockets' handlers have ended (daphne cancels them), stop this
        loop's runtime (its services: the ticker, a running analysis, the waves), then end the CPU
        workers, so that nothing is left to fail against a worker already gone (:func:`stop_loops`)."""
        from twisted.internet import defer

        instances = [details["application_instance"] for details in self.connections.values()
                     if "application_instance" in details]
        return defer.Deferred.fromFuture(asyncio.ensure_future(stop_loops(instances)))

    @property
    def ws_factory(self) -> Any:  # Any: daphne's factory, untyped
        return self._ws_factory

    @ws_factory.setter
    def ws_factory(self, factory: Any) -> None:  # daphne's run() makes it, then sets its options
        factory.protocol = slim_protocol()
        self._ws_factory = factory

    def protocol_disconnected(self, protocol: Any) -> None:  # Any: daphne's and twisted's, untyped
        super().protocol_disconnected(protocol)
        if isinstance(protocol, WebRequest) and protocol.transport is None:
            release_upgraded(protocol)

    async def handle_reply(self, protocol: Any, message: Message) -> None:  # Any: daphne's protocol, untyped
        if isinstance(protocol, WebRequest) and message.get("type") == "http.response.body":
            await body_sent(self, protocol, message)
            return
        await super().handle_reply(protocol, message)

    def create_application(self, protocol: Any, scope: Scope) -> Any:  # Any: daphne's, untyped
        if scope["type"] != "websocket":
            return super().create_application(protocol, scope)
        if "application_instance" in self.connections[protocol]:
            raise RuntimeError(f"{protocol!r} has an application already")
        inbox: Inbox[object] = Inbox()  # daphne's frames (dicts), and its channel's messages (bytes)
        scope.setdefault("asgi", {"version": "3.0"})
        instance = self.application(scope=scope, receive=inbox.get, send=partial(self.handle_reply, protocol))
        if protocol not in self.connections:  # it went while the application was made
            return None
        self.connections[protocol]["application_instance"] = asyncio.ensure_future(instance)
        return inbox


async def stop_loops(instances: list[asyncio.Future[Any]]) -> None:
    """Wait (``STOP_STEP_SECONDS`` at most) for the applications ``instances`` to end, then stop this
    loop's runtime (as long at most), then end the CPU workers' lanes (``games.cpu_pool.shutdown``). A
    leased job cut short (an analysis, a CPU move) is another process's once its lease runs out."""
    from games import cpu_pool
    from live import runtime

    pending = [instance for instance in instances if not instance.done()]
    if pending:
        await asyncio.wait(pending, timeout=STOP_STEP_SECONDS)
    try:
        await asyncio.wait_for(runtime.stop_this_loop(), STOP_STEP_SECONDS)
    except TimeoutError:
        log.warning("the loop's services did not stop within %g s", STOP_STEP_SECONDS)
    finally:
        cpu_pool.shutdown()


class Drain:
    """The transport's word on one streamed response (twisted's push producer, registered on the request):
    paused while the connection's send buffers are full, flowing again once the client has read them."""

    def __init__(self, *, paused: bool) -> None:
        self.flowing = asyncio.Event()
        if not paused:
            self.flowing.set()

    def pauseProducing(self) -> None:
        self.flowing.clear()

    def resumeProducing(self) -> None:
        self.flowing.set()

    def stopProducing(self) -> None:  # the connection goes: nothing waits for it
        self.flowing.set()


async def body_sent(server: Server, request: WebRequest, message: Message) -> None:
    """Hand a streamed response's ``http.response.body`` to daphne, then wait until the client has read
    enough of it for more (back-pressure): a client that reads nothing holds one buffer's worth, not the
    whole body, and the application's stream waits, holding what it holds (a per-address lease) until the
    client has it. A client gone, or reading nothing for ``STALL_SECONDS``, ends the stream: the connection
    is dropped and the application's send is cancelled, as daphne cancels an application whose client went."""
    drain: Drain | None = getattr(request, "drain", None)
    if not message.get("more_body", False):
        if drain is not None and request.producer is drain and request.channel is not None:
            request.unregisterProducer()  # a client gone took its channel with it: nothing to unregister
        await Server.handle_reply(server, request, message)
        return
    if drain is None and request.channel is not None and not request.finished:
        drain = request.drain = Drain(paused=bool(getattr(request.channel, "_waitingForTransport", False)))
        request.registerProducer(drain, True)
    await Server.handle_reply(server, request, message)
    if drain is None or request.channel is None or request.finished or _gone(server, request):
        raise asyncio.CancelledError
    if not drain.flowing.is_set():
        metrics.HTTP_RESPONSES_WAITING.inc()
        try:
            await asyncio.wait_for(drain.flowing.wait(), STALL_SECONDS)
        except TimeoutError:
            request.channel.transport.abortConnection()
            raise asyncio.CancelledError from None
        finally:
            metrics.HTTP_RESPONSES_WAITING.dec()
    if _gone(server, request):
        raise asyncio.CancelledError


def _gone(server: Server, request: WebRequest) -> bool:
    return request not in server.connections or bool(server.connections[request].get("disconnected"))


def release_upgraded(request: WebRequest) -> None:
    """Let go of an HTTP request upgraded to a websocket (its transport went to the websocket's protocol):
    its channel is still the transport's producer, which keeps the channel and its requests alive for as
    long as the socket is open. The channel has nothing more to read or produce."""
    channel: Any = getattr(request, "channel", None)  # twisted drops it from a request finished; Any: untyped
    transport = getattr(channel, "transport", None)
    if channel is None or transport is None or getattr(transport, "protocol", channel) is channel:
        return  # not upgraded: an HTTP request served, its channel still the transport's
    if getattr(transport, "producer", None) is channel:
        transport.unregisterProducer()
    channel.requests = []


class Cli(CommandLineInterface):  # type: ignore[misc]  # daphne is untyped: its classes are Any
    server_class = InboxServer


class _Pretty:
    """``pprint.pformat(value)``, made only if a debug line showing it is written."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __str__(self) -> str:
        return pprint.pformat(self.value)


def quiet_handshakes() -> None:
    """autobahn pretty-prints every websocket's settings for a debug line at each handshake, written or not
    (about a sixteenth of a spectator storm's CPU): have it format them only when the line is written."""
    setattr(autobahn_protocol, "pformat", _Pretty)  # noqa: B010  # a module attribute autobahn does not export


def served_at(argv: list[str]) -> str:
    """The address daphne's ``-b``/``--bind`` and ``-p``/``--port`` serve on, as a link: ``SITE_URL``'s value
    when it is not set, so that the links in emails reach this server (127.0.0.1 when it listens on every
    address: behind a proxy or on a network, set ``SITE_URL``)."""
    found = {"host": "127.0.0.1", "port": "8000"}
    for flag, value in itertools.pairwise(argv):
        if flag in ("-b", "--bind"):
            found["host"] = "127.0.0.1" if value in ("0.0.0.0", "::", "") else value
        elif flag in ("-p", "--port"):
            found["port"] = value
    host = f"[{found['host']}]" if ":" in found["host"] else found["host"]
    return f"http://{host}:{found['port']}"


def main() -> None:
    quiet_handshakes()
    if not os.environ.get("SITE_URL", "").strip():
        os.environ["SITE_URL"] = served_at(sys.argv[1:])
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.conf import settings

    Cli().run(arguments(sys.argv[1:], float(settings.PING_TIMEOUT_SECONDS)))

