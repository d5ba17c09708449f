"""ASGI entry point: HTTP goes to Django, websockets to the room consumers. Routing only.

Every request also makes sure this process's runtime runs (:mod:`lobby.realtime.runtime`: timers and CPU
moves fire from any server process; a restarted process resumes as soon as a load balancer's health
check reaches it).
A websocket path with no route is refused with close code 4404, like an unknown room.
"""

import os
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.signals import request_finished  # noqa: E402
from django.db import connections  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402
from lobby.realtime import runtime  # noqa: E402

router = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)


def close_request_connections(**kwargs: Any) -> None:
    """Close the finishing HTTP request's database connections.

    Django serves each request in a thread of its own, so a connection kept open past the request
    (kept connections: the embedded SQLite database, ``DB_CONNECTIONS=persistent``) would never be used
    again, nor closed. A connection inside a transaction belongs to whoever opened it, not to the
    request (a test calling a view inside its own transaction, as Django's test client does): kept.
    """
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()


if settings.DATABASES["default"]["CONN_MAX_AGE"] != 0:
    request_finished.connect(close_request_connections, dispatch_uid="close_request_connections")


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] in {"http", "websocket"}:
        runtime.ensure_running()
    await router(scope, receive, send)
