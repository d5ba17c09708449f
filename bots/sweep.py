"""Each event loop's challenge sweep: a service of its runtime (``live.runtime.LOOP_SERVICES``).

It expires the challenges past ``CHALLENGE_TTL_SECONDS`` (:func:`bots.challenges.challenges_expire`: each
once, whichever process gets there first) when the next one falls due, as the data says
(:func:`challenges_next_expiry`), read again when a challenge is made here
(:class:`bots.events.ChallengeMade`) and at the latest every ``LOOK_SECONDS`` (one made on a process that
died since). Database work goes through :func:`live.offload.offload`.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from bots.challenges import challenge_ttl, challenges_expire
from bots.events import ChallengeMade
from bots.models import Challenge, ChallengeStatus
from live.events import Signal
from live.offload import offload
from live.periodic import Waker

if TYPE_CHECKING:
    from live.runtime import Runtime

LOOK_SECONDS = 30.0
FIRST_SECONDS = 1.0  # the first look after the loop starts


def challenges_next_expiry() -> datetime | None:
    """When the next live challenge expires (None: none waits)."""
    first = Challenge.objects.filter(status=ChallengeStatus.CREATED).order_by("created_at").values_list(
        "created_at", flat=True).first()
    return None if first is None else first + challenge_ttl()


class ChallengeSweep:
    """The challenge sweep of one event loop (made by its runtime with the runtime)."""

    hears: tuple[type[Signal], ...] = (ChallengeMade,)

    def __init__(self, runtime: Runtime) -> None:
        self.waker = Waker(self.step, name="challenge sweep", longest=LOOK_SECONDS)

    def start(self) -> None:
        self.waker.start(after=FIRST_SECONDS)

    async def stop(self) -> None:
        await self.waker.stop()

    def hear(self, signal: Signal) -> None:
        self.waker.wake()

    def covers(self, signal: Signal) -> bool:
        return False

    async def sweep(self, *, now: datetime) -> int:
        """Expire what is due; returns how many challenges expired."""
        return await offload(challenges_expire)(now=now)

    async def step(self, *, now: datetime) -> datetime | None:
        """Expire what is due; returns when the next challenge expires."""
        await self.sweep(now=now)
        return await offload(challenges_next_expiry)()
