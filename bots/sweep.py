"""Each event loop's challenge sweep: a service of its runtime (``live.runtime.LOOP_SERVICES``).

Every ``SWEEP_SECONDS`` it expires the challenges past ``CHALLENGE_TTL_SECONDS``
(:func:`bots.challenges.challenges_expire`: each once, whichever process gets there first). Database work
goes through :func:`live.offload.offload`.
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import TYPE_CHECKING

from bots.challenges import challenges_expire
from live.offload import offload
from live.periodic import run_every

if TYPE_CHECKING:
    from live.runtime import Runtime

SWEEP_SECONDS = 1.0


class ChallengeSweep:
    """The challenge sweep of one event loop (made by its runtime with the runtime)."""

    def __init__(self, runtime: Runtime) -> None:
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.task = asyncio.get_running_loop().create_task(
            run_every(SWEEP_SECONDS, self.sweep, name="challenge sweep"), name="challenge sweep")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)

    async def sweep(self, *, now: datetime) -> int:
        """Expire what is due; returns how many challenges expired."""
        return await offload(challenges_expire)(now=now)
