"""The engine line protocol (docs/bots.md): the client writes a position and a time budget, the engine
answers its move.

    client -> engine   position a1 b2 c3        the moves so far, Red first (``position`` alone: empty board)
    client -> engine   go 1500                  think at most 1500 ms
    engine -> client   bestmove d4              the engine's move (lines before it, e.g. ``info ...``, are ignored)
    client -> engine   quit                     the game is over: exit

Any program that reads lines on stdin and writes lines on stdout (flushed) can play.
"""

from __future__ import annotations

import logging
import shlex
import subprocess
import sys
import threading
from collections.abc import Sequence

log = logging.getLogger(__name__)

# An engine that overruns its budget by this much is treated as hung for this move.
GRACE_SECONDS = 5.0


class EngineFailed(Exception):
    """The engine exited, hung, or answered something that is not ``bestmove <peg>``."""


class LineEngine:
    """One engine process for one game, spoken to in the line protocol."""

    def __init__(self, command: Sequence[str]) -> None:
        self.command = list(command)
        self.proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     bufsize=1)
        self.lock = threading.Lock()

    @classmethod
    def from_command_line(cls, command: str) -> LineEngine:
        return cls(shlex.split(command))

    def best_move(self, moves: Sequence[str], *, budget_ms: int) -> str:
        """The engine's move after ``moves``, thinking at most ``budget_ms``.

        Raises:
            EngineFailed: see the class.
        """
        with self.lock:
            if self.proc.poll() is not None or self.proc.stdin is None or self.proc.stdout is None:
                raise EngineFailed(f"the engine exited with {self.proc.returncode}")
            try:
                self.proc.stdin.write(" ".join(["position", *moves]) + "\n")
                self.proc.stdin.write(f"go {max(1, budget_ms)}\n")
                self.proc.stdin.flush()
            except OSError as exc:
                raise EngineFailed(f"the engine does not read: {exc}") from None
            return self._answer(budget_ms / 1000 + GRACE_SECONDS)

    def _answer(self, timeout: float) -> str:
        found: list[str] = []

        def read() -> None:
            assert self.proc.stdout is not None
            for line in self.proc.stdout:
                words = line.split()
                if words[:1] == ["bestmove"] and len(words) == 2:
                    found.append(words[1])
                    return
                log.debug("engine: %s", line.rstrip())

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        reader.join(timeout)
        if not found:
            self.close()
            raise EngineFailed("the engine did not answer bestmove in time" if reader.is_alive()
                               else "the engine stopped without a bestmove")
        return found[0]

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                if self.proc.stdin is not None:
                    self.proc.stdin.write("quit\n")
                    self.proc.stdin.flush()
                self.proc.wait(2)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()


def cpu_command(level: int) -> list[str]:
    """The command of the built-in adapter: the site's CPU at ``level`` (1 Beginner .. 5 Master)."""
    return [sys.executable, "-m", "botclient.cpu_engine", "--level", str(level)]
