"""What a websocket's consumer learns of its device: the session cookie's value, as ``scope["session_key"]``.

Channels' session middleware would put a lazy session object in the scope instead, and wrap every frame
the consumer sends to see whether the session changed (a websocket never saves one). Our consumers read
the session once, with the player, in their database thread (``players.identity.device_player``); the
key is all they need, and nothing of the session stays with an open socket.
"""

from __future__ import annotations

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
    """ASGI middleware: ``scope["session_key"]`` for the inner application."""

    def __init__(self, inner: App) -> None:
        self.inner = inner

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.inner({**scope, "session_key": session_key(scope.get("headers", []))}, receive, send)
