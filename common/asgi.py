"""The types of an ASGI application and its two callables, as Django's handler takes them.

A scope and each message are dicts whose keys and values depend on the protocol and the event (the ASGI
specification lists them), so their values are ``Any``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

Scope = dict[str, Any]
Message = Mapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

# The attribute that marks a view as an async stream served on the event loop alone, holding no thread of
# the request's own (``bots.streams.base.stream_view`` sets it, ``config.http.is_stream`` reads it).
STREAM_MARK = "async_stream"
