"""A token bucket per connection: sustained frames above the rate are refused, short bursts pass."""

from __future__ import annotations

import time
from collections.abc import Callable


class TokenBucket:
    """Allow ``rate`` events a second on average, with bursts of up to ``burst`` events.

    ``clock`` returns seconds (monotonic); tests inject their own.
    """

    def __init__(self, *, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = burst
        self.stamp = clock()

    def allow(self) -> bool:
        """Take one token if there is one; False means the event should be refused."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False
