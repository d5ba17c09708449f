"""Each event loop's arcade sweep: a service of its runtime (``live.runtime.LOOP_SERVICES``).

Every ``SWEEP_SECONDS`` it closes the runs idle for 24 hours (:data:`arcade.services.IDLE`) and those left
open that can change no more (:func:`arcade.services.runs_close_idle`: each closed once, replayed and ranked,
whichever process gets there first; ``manage.py close_idle_runs`` does the same from outside). Database work
goes through :func:`live.offload.offload`.
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import TYPE_CHECKING

from arcade.services import runs_close_idle
from live.offload import offload
from live.periodic import run_every

if TYPE_CHECKING:
    from live.runtime import Runtime

SWEEP_SECONDS = 300.0


class ArcadeSweep:
    """The arcade sweep of one event loop (made by its runtime with the runtime)."""

    def __init__(self, runtime: Runtime) -> None:
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.task = asyncio.get_running_loop().create_task(
            run_every(SWEEP_SECONDS, self.sweep, name="arcade sweep"), name="arcade sweep")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)

    async def sweep(self, *, now: datetime) -> list[str]:
        """Close what is due; returns the runs closed."""
        return await offload(runs_close_idle)(now=now)
