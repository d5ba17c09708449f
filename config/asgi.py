"""ASGI entry point: HTTP goes to Django, websockets to the room consumers. Routing only.

Every request also makes sure this process's runtime runs (:mod:`live.runtime`: timers and CPU
moves fire from any server process; a restarted process resumes as soon as a load balancer's health
check reaches it).
A websocket path with no route is refused with close code 4404, like an unknown room.
"""

import gc
import os
from collections.abc import Awaitable

import django

from common.threads import name_os_threads

name_os_threads()  # every thread from here on named for the kernel, to be counted by kind (harness.procfs)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)

from config.http import AsyncHandler, OneHopHandler, StreamsApart, ThreadedHttp, close_request_connections  # noqa: E402

django_asgi_app = OneHopHandler()
streams_app = AsyncHandler()

from channels.routing import URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.signals import request_finished  # noqa: E402

from common.asgi import Receive, Scope, Send  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402
from config.websocket import OriginCheck, ProtocolRouter, SessionKeyMiddleware  # noqa: E402
from live import runtime  # noqa: E402

router = ProtocolRouter(
    {
        # Each request on one of HTTP_THREADS threads that keep their database connections; a bot's stream
        # on the event loop alone, holding no thread (config.http).
        "http": StreamsApart(streams=streams_app, rest=ThreadedHttp(django_asgi_app, settings.HTTP_THREADS)),
        # The session cookie's value only: each consumer reads the session with the player, in one offload
        # (config.websocket). Channels' session and auth stacks would keep a session object per socket.
        # Each hands on the next one's coroutine, adding none to an open socket's (config.websocket).
        "websocket": OriginCheck(SessionKeyMiddleware(URLRouter(websocket_urlpatterns))),
    }
)

if settings.DATABASES["default"]["CONN_MAX_AGE"] != 0:
    request_finished.connect(close_request_connections, dispatch_uid="close_request_connections")


# Everything imported so far lives as long as the process: keep it out of every later collection (each
# full collection walked it all, a pause in the middle of the moves), and collect the young generation
# less often (a move allocates a few hundred objects, most of them gone by the end of the move).
gc.collect()
gc.freeze()
gc.set_threshold(*settings.GC_THRESHOLDS)


def application(scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
    if scope["type"] in {"http", "websocket"}:
        runtime.ensure_running()
    return router(scope, receive, send)  # its coroutine, not one of this function's own (config.websocket)


application._asgi_single_callable = True  # type: ignore[attr-defined]  # an ASGI 3 application all the same
