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
from live.offload import offload
from live.periodic import WakerService

if TYPE_CHECKING:
    from live.runtime import Runtime

LOOK_SECONDS = 30.0
FIRST_SECONDS = 1.0  # the first look after the loop starts


def challenges_next_expiry() -> datetime | None:
    """When the next live challenge expires (None: none waits)."""
    first = Challenge.objects.filter(status=ChallengeStatus.CREATED).order_by("created_at").values_list(
        "created_at", flat=True).first()
    return None if first is None else first + challenge_ttl()


class ChallengeSweep(WakerService):
    """The challenge sweep of one event loop (made by its runtime with the runtime)."""

    hears = (ChallengeMade,)
    name = "challenge sweep"
    longest = LOOK_SECONDS
    first_after = FIRST_SECONDS

    def __init__(self, runtime: Runtime) -> None:
        super().__init__()

    async def sweep(self, *, now: datetime) -> int:
        """Expire what is due; returns how many challenges expired."""
        return await offload(challenges_expire)(now=now)

    async def step(self, *, now: datetime) -> datetime | None:
        """Expire what is due; returns when the next challenge expires."""
        await self.sweep(now=now)
        return await offload(challenges_next_expiry)()
