"""ASGI entry point: HTTP goes to Django, websockets to the room consumers. Routing only.

Every request also makes sure this process's game scheduler runs (timers and CPU moves fire from any
server process; a restarted process resumes as soon as a load balancer's health check reaches it).
"""

import os
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402
from lobby import scheduler  # noqa: E402

router = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] in {"http", "websocket"}:
        scheduler.ensure_running()
    await router(scope, receive, send)
