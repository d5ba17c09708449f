"""What a websocket's consumer learns of its device: the session cookie's value, as ``scope["session_key"]``.

Channels' session middleware would put a lazy session object in the scope instead, and wrap every frame
the consumer sends to see whether the session changed (a websocket never saves one). Our consumers read
the session once, with the player, in their database thread (``players.identity.device_player``); the
key is all they need, and nothing of the session stays with an open socket.

The websocket's way in (:class:`ProtocolRouter`, :class:`OriginCheck`, :class:`SessionKeyMiddleware`)
hands on the next application's coroutine rather than awaiting it in a coroutine of its own: an open
socket is served by one chain of coroutines, each frame of which (with the scope it was given, the parsed
``Origin``) lives as long as the socket; these add none to it. The scope the consumer gets has a headers
list of its own, emptied once the consumer has handled its connect (``live.socket``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Mapping
from urllib.parse import urlparse

from channels.security.websocket import OriginValidator, WebsocketDenier
from django.conf import settings
from django.http.cookie import parse_cookie

from common.asgi import App, Receive, Scope, Send


def session_key(headers: list[tuple[bytes, bytes]]) -> str | None:
    """The session cookie's value in ``headers`` (an ASGI scope's), or None. A value that cannot be a
    session key (Django's are ASCII letters and digits) is None too: it never reaches the database (a
    NUL in it would be an error there, not a visitor)."""
    for name, value in headers:
        if name == b"cookie":
            key = parse_cookie(value.decode("latin-1")).get(settings.SESSION_COOKIE_NAME)
            return key if key and key.isascii() and key.isalnum() else None
    return None


class SessionKeyMiddleware:
    """ASGI middleware: ``scope["session_key"]`` for the inner application, in a scope of its own (its
    headers a list of its own too)."""

    _asgi_single_callable = True  # an ASGI 3 application, though its __call__ is no coroutine function

    def __init__(self, inner: App) -> None:
        self.inner = inner

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        headers = list(scope.get("headers", []))
        return self.inner({**scope, "headers": headers, "session_key": session_key(headers)}, receive, send)


class OriginCheck(OriginValidator):  # type: ignore[misc]  # channels is untyped: its classes are Any
    """Channels' ``AllowedHostsOriginValidator``: a websocket whose ``Origin`` is not one of
    ``ALLOWED_HOSTS`` is refused (403)."""

    _asgi_single_callable = True

    def __init__(self, application: App) -> None:
        hosts = settings.ALLOWED_HOSTS
        if settings.DEBUG and not hosts:
            hosts = ["localhost", "127.0.0.1", "[::1]"]
        super().__init__(application, hosts)

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        if scope["type"] != "websocket":
            raise ValueError("OriginCheck serves websockets only")
        origin = None
        for name, value in scope.get("headers", []):
            if name == b"origin":
                with contextlib.suppress(UnicodeDecodeError):
                    origin = urlparse(value.decode("latin1"))
        if self.valid_origin(origin):
            application: App = self.application
            return application(scope, receive, send)
        denied: Awaitable[None] = WebsocketDenier()(scope, receive, send)
        return denied


class ProtocolRouter:
    """Channels' ``ProtocolTypeRouter``: each scope to the application of its type."""

    _asgi_single_callable = True

    def __init__(self, applications: Mapping[str, App]) -> None:
        self.applications = applications

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        application = self.applications.get(scope["type"])
        if application is None:
            raise ValueError(f"no application for scope type {scope['type']!r}")
        return application(scope, receive, send)
