"""An NDJSON stream of the bot API (``GET /api/stream/event``, ``/api/bot/game/stream/{id}``), read by a thread
of its own into a queue, with the time each line arrived: what a bot holds, for the tests and the benchmark.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import queue
import threading
import time
import urllib.parse
from collections.abc import Callable
from typing import Any

from harness.server import Json

WAIT_TIMEOUT = 20.0
Line = dict[str, Any]


class StreamRefused(Exception):
    """The server answered the stream with an error status (``status``, ``body``)."""

    def __init__(self, status: int, body: Json) -> None:
        super().__init__(f"{status} {body}")
        self.status, self.body = status, body


class NdjsonStream:
    """One open stream at ``base`` + ``path`` with ``token``. ``lines`` keeps every JSON line read, ``ended``
    is set once the server ended it (or the connection broke)."""

    def __init__(self, base: str, path: str, token: str) -> None:
        url = urllib.parse.urlsplit(base)
        if url.hostname is None:
            raise ValueError(f"{base!r} names no host")
        self.conn = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
        self.conn.request("GET", path, headers={"Authorization": f"Bearer {token}"})
        response = self.conn.getresponse()
        if response.status != 200:
            body = response.read()
            self.conn.close()
            raise StreamRefused(response.status, json.loads(body or b"null"))
        self.response = response
        self.lines: list[Line] = []
        self.queue: queue.Queue[tuple[float, Line] | None] = queue.Queue()
        self.keep_alives = 0
        self.ended = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            while True:
                raw = self.response.readline()
                if not raw:
                    break
                if not raw.strip():
                    self.keep_alives += 1
                    continue
                line = json.loads(raw)
                self.lines.append(line)
                self.queue.put((time.perf_counter(), line))
        except (OSError, ValueError, AttributeError):
            pass  # closed by close(), or broken
        finally:
            self.ended.set()
            self.queue.put(None)

    def next(self, timeout: float = WAIT_TIMEOUT) -> tuple[float, Line]:
        """(perf_counter when it arrived, the line).

        Raises:
            TimeoutError: nothing within ``timeout``; EOFError: the stream ended.
        """
        try:
            item = self.queue.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"no line within {timeout:g} s") from None
        if item is None:
            self.queue.put(None)
            raise EOFError("the stream ended")
        return item

    def wait(self, match: Callable[[Line], bool], timeout: float = WAIT_TIMEOUT) -> Line:
        """The next line that ``match`` accepts (lines before it are skipped, still kept in ``lines``)."""
        end = time.monotonic() + timeout
        while True:
            _, line = self.next(max(0.01, end - time.monotonic()))
            if match(line):
                return line

    def close(self) -> None:
        """Hang up, as a client that goes away."""
        sock = self.conn.sock
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(2)
        self.conn.close()
        self.ended.wait(5)
