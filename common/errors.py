"""Refusals: a request that breaks the rules of a room, a game or an account.

Each has a stable code and a sentence for a player.
"""

from __future__ import annotations


class Refused(Exception):
    """A service refused a request and changed nothing.

    Attributes:
        code: stable machine code (``not_your_turn``, ``stale``, ``seat_taken``, ...).
        message: one sentence a player can read.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"Refused({self.code!r}, {self.message!r})"


class RateLimited(Refused):
    """Too many requests of one kind from one caller; ``retry_after`` is how many seconds until the next is heard.

    Answered over HTTP as 429 with a ``Retry-After`` header.
    """

    def __init__(self, retry_after: int, *, message: str = "Too many requests.") -> None:
        super().__init__("rate_limited", f"{message} Try again in {retry_after} seconds.")
        self.retry_after = retry_after
