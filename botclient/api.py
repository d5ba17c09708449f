"""The bot API over HTTP: JSON calls and NDJSON streams, with the token. Standard library only."""

from __future__ import annotations

import http.client
import json
import urllib.parse
from collections.abc import Iterator
from typing import Any

# A decoded JSON answer: json.loads gives Any (docs/bots.md has each answer's fields).
Json = Any

# A stream sends an empty line every few seconds: silence this long means the connection is dead.
STREAM_SILENCE_SECONDS = 30.0
CALL_TIMEOUT_SECONDS = 30.0


class ApiError(Exception):
    """The server refused a call: ``status`` and the body's ``code`` and ``message``."""

    def __init__(self, status: int, code: str, message: str, *, retry_after: float = 1.0) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message = status, code, message
        self.retry_after = retry_after


class Api:
    """One server (``http://host:port``) and one token."""

    def __init__(self, base: str, token: str) -> None:
        url = urllib.parse.urlsplit(base)
        if url.scheme not in ("http", "https") or not url.hostname:
            raise ValueError(f"not an http(s) address: {base!r}")
        self.scheme, self.host, self.port = url.scheme, url.hostname, url.port
        self.prefix = url.path.rstrip("/")
        self.headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}

    def _connection(self, timeout: float) -> http.client.HTTPConnection:
        kind = http.client.HTTPSConnection if self.scheme == "https" else http.client.HTTPConnection
        return kind(self.host, self.port, timeout=timeout)

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Json:
        """One JSON call; its decoded answer.

        Raises:
            ApiError: a 4xx or 5xx answer.
            OSError: no answer at all.
        """
        conn = self._connection(CALL_TIMEOUT_SECONDS)
        try:
            data = None if body is None else json.dumps(body).encode()
            headers = {**self.headers, **({"Content-Type": "application/json"} if data is not None else {})}
            conn.request(method, self.prefix + path, body=data, headers=headers)
            response = conn.getresponse()
            raw = response.read()
        finally:
            conn.close()
        try:
            answer = json.loads(raw) if raw else None
        except ValueError:
            answer = {"code": "not_json", "message": raw[:200].decode("utf-8", "replace")}
        if response.status >= 400:
            answer = answer if isinstance(answer, dict) else {}
            retry = response.getheader("Retry-After") or ""
            raise ApiError(response.status, str(answer.get("code", "error")), str(answer.get("message", "")),
                           retry_after=float(retry) if retry.isdigit() else 1.0)
        return answer

    def stream(self, path: str) -> Iterator[dict[str, Any]]:
        """Open an NDJSON stream; its JSON objects as they come (keep-alive lines skipped), until it ends.

        Connected on return: a refusal is raised here, not when the first line is read.

        Raises:
            ApiError: the stream was refused.
            OSError: the connection failed (or, while reading, went silent past ``STREAM_SILENCE_SECONDS``).
        """
        conn = self._connection(STREAM_SILENCE_SECONDS)
        try:
            conn.request("GET", self.prefix + path, headers=self.headers)
            response = conn.getresponse()
            if response.status >= 400:
                raw = response.read()
                try:
                    answer = json.loads(raw)
                except ValueError:
                    answer = {}
                raise ApiError(response.status, str(answer.get("code", "error")), str(answer.get("message", "")))
        except BaseException:
            conn.close()
            raise
        return self._lines(conn, response)

    @staticmethod
    def _lines(conn: http.client.HTTPConnection, response: http.client.HTTPResponse) -> Iterator[dict[str, Any]]:
        try:
            while True:
                line = response.readline()
                if not line:
                    return
                if line.strip():
                    yield json.loads(line)
        finally:
            conn.close()

    # --- the endpoints ---------------------------------------------------------------------------------
    def accept(self, challenge_id: str) -> Json:
        return self.call("POST", f"/api/challenge/{challenge_id}/accept")

    def decline(self, challenge_id: str, reason: str) -> Json:
        return self.call("POST", f"/api/challenge/{challenge_id}/decline", {"reason": reason})

    def challenge(self, username: str, *, turn_seconds: int, ranked: bool, colour: str = "random") -> Json:
        return self.call("POST", f"/api/challenge/{urllib.parse.quote(username)}",
                         {"turn_seconds": turn_seconds, "ranked": ranked, "colour": colour})

    def move(self, game_id: str, peg: str, *, ply: int | None = None) -> Json:
        query = "" if ply is None else f"?ply={ply}"
        return self.call("POST", f"/api/bot/game/{game_id}/move/{urllib.parse.quote(peg)}{query}")

    def chat(self, game_id: str, text: str, *, room: str = "player") -> Json:
        return self.call("POST", f"/api/bot/game/{game_id}/chat", {"room": room, "text": text})

    def resign(self, game_id: str) -> Json:
        return self.call("POST", f"/api/bot/game/{game_id}/resign")

    def events(self) -> Iterator[dict[str, Any]]:
        return self.stream("/api/stream/event")

    def game(self, game_id: str) -> Iterator[dict[str, Any]]:
        return self.stream(f"/api/bot/game/stream/{game_id}")
