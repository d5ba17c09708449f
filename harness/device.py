"""A device: a browser-like HTTP client with its own cookie jar, hence its own session and player."""

from __future__ import annotations

import http.cookiejar
import json
import urllib.error
import urllib.request
from typing import Any

from harness.server import HTTP_TIMEOUT, Json


class HttpError(Exception):
    """An HTTP call answered with a status the caller did not expect."""


class Device:
    """One browser: its cookies, the CSRF header on every write, JSON in and out.

    The calls block (urllib); async callers run them with ``asyncio.to_thread``.
    """

    def __init__(self, base: str) -> None:
        self.base = base.rstrip("/")
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def cookie(self, name: str) -> str:
        """The value of the cookie ``name``; empty if the device has none."""
        return next((c.value for c in self.jar if c.name == name and c.value is not None), "")

    def cookie_header(self) -> str:
        """Every cookie, as a ``Cookie`` header (for the websocket handshake)."""
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)

    def request(self, method: str, path: str, body: Json = None, *, base: str | None = None) -> tuple[int, Json]:
        """Send one JSON request to ``path`` of ``base`` (default: the device's server); (status, decoded body).

        Writes carry ``X-CSRFToken`` from the cookie. A body that is not JSON comes back as text (its
        first 200 characters). Raises ``OSError`` only when no answer comes at all.
        """
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request((base or self.base) + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if method != "GET":
            req.add_header("X-CSRFToken", self.cookie("csrftoken"))
        try:
            with self.opener.open(req, timeout=HTTP_TIMEOUT) as response:
                return response.status, _json_or_text(response.read())
        except urllib.error.HTTPError as err:
            return err.code, _json_or_text(err.read())

    def expect(self, method: str, path: str, body: Json = None, *, ok: tuple[int, ...] = (200, 201)) -> Json:
        """``request``'s body when the status is one of ``ok``.

        Raises:
            HttpError: any other status (the message starts ``METHOD PATH: STATUS``).
        """
        status, answer = self.request(method, path, body)
        if status not in ok:
            raise HttpError(f"{method} {path}: {status} {str(answer)[:200]}")
        return answer

    def join(self, name: str) -> dict[str, Any]:
        """Become a player called ``name`` as the page does (a CSRF cookie first); the player."""
        self.request("GET", "/api/session")
        return dict(self.expect("POST", "/api/session", {"name": name})["player"])

    def create_room(self, rules: dict[str, Any]) -> str:
        """Create a room with ``rules``; its code. Raises ``HttpError`` unless it is created (201)."""
        return str(self.expect("POST", "/api/rooms", rules, ok=(201,))["code"])


def _json_or_text(raw: bytes) -> Json:
    try:
        return json.loads(raw or b"null")
    except ValueError:
        return raw[:200].decode("utf-8", "replace")
