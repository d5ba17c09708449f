"""live.periodic.Waker: a loop that runs when its work is due, not on a clock: at the time its step computed,
when woken, at the latest after ``longest``; a wake covered by a round planned before it wakes nothing; a
step that fails is logged and the next round runs later. And an idle runtime's loops sleep."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from live import runtime
from live.periodic import Waker

# Generous: the machine is shared. A round planned later must not come before (asserted exactly).
SOON = 10.0


class Steps:
    """A step that records when it ran and returns what it is told (a due time, None, or an error)."""

    def __init__(self) -> None:
        self.times: list[datetime] = []
        self.next: list[datetime | Exception | None] = []
        self.ran = asyncio.Event()

    async def __call__(self, *, now: datetime) -> datetime | None:
        self.times.append(now)
        self.ran.set()
        answer = self.next.pop(0) if self.next else None
        if isinstance(answer, Exception):
            raise answer
        return answer

    async def round(self) -> datetime:
        self.ran.clear()
        await asyncio.wait_for(self.ran.wait(), SOON)
        return self.times[-1]


async def test_a_waker_runs_at_start_then_sleeps_until_woken():
    steps = Steps()
    waker = Waker(steps, name="test", longest=3600)
    waker.start()
    try:
        await steps.round()
        await asyncio.sleep(0.3)
        assert len(steps.times) == 1  # nothing due: asleep (an hour at most)
        assert waker.covers(timezone.now() + timedelta(hours=2))
        assert not waker.covers()
        waker.wake()
        await steps.round()
        assert len(steps.times) == 2
    finally:
        await waker.stop()


async def test_a_waker_runs_when_its_step_said_work_is_due_not_before():
    steps = Steps()
    waker = Waker(steps, name="test", longest=3600)
    due = timezone.now() + timedelta(seconds=0.4)
    steps.next = [due]
    waker.start()
    try:
        await steps.round()
        ran = await steps.round()
        assert ran >= due
        assert len(steps.times) == 2
    finally:
        await waker.stop()


async def test_a_wake_for_later_than_the_planned_round_is_covered_and_an_earlier_one_moves_it():
    steps = Steps()
    waker = Waker(steps, name="test", longest=3600)
    steps.next = [timezone.now() + timedelta(hours=1)]
    waker.start()
    try:
        await steps.round()
        await asyncio.sleep(0)
        assert waker.covers(timezone.now() + timedelta(hours=1, seconds=1))
        assert not waker.covers(timezone.now() + timedelta(minutes=59))
        soon = timezone.now() + timedelta(seconds=0.3)
        waker.wake(soon)
        ran = await steps.round()
        assert ran >= soon
    finally:
        await waker.stop()


async def test_a_failing_step_is_logged_and_the_next_round_runs_after_longest(caplog):
    steps = Steps()
    waker = Waker(steps, name="flaky loop", longest=0.3)
    steps.next = [RuntimeError("database hiccup")]
    waker.start()
    try:
        first = await steps.round()
        second = await steps.round()
        assert second - first >= timedelta(seconds=0.3)
    finally:
        await waker.stop()
    assert "flaky loop failed" in caplog.text


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("runtime_cleanup")
async def test_an_idle_runtime_s_loops_each_run_once_then_sleep():
    from accounts.loop import MailLoop
    from bots.sweep import ChallengeSweep
    from correspondence.realtime import CorrespondenceLoop
    from lobby.realtime.loop import LobbyLoop
    from tournaments.realtime.loop import ArenaLoop

    loop_runtime = runtime.ensure_running()
    wakers = [loop_runtime.service(LobbyLoop).ticker.waker, *loop_runtime.service(LobbyLoop).matchmaker.loops,
              loop_runtime.service(ArenaLoop).waker, loop_runtime.service(ChallengeSweep).waker,
              loop_runtime.service(CorrespondenceLoop).waker, loop_runtime.service(MailLoop).waker]
    await asyncio.sleep(3)
    # Each looked once after its start, and then slept: the ticker ticked every 0.25 s, quick pairing's
    # waves, the arenas, the challenges and the mail every second, the correspondence loop every 2, before
    # they woke on work.
    assert [w.rounds for w in wakers] == [1, 1, 1, 1, 1, 1, 1]
