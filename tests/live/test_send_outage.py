"""While the channel layer refuses sends (Redis is down), the log says so once when it starts and once
when it ends, and /metrics counts every send that failed: no traceback per move."""

from __future__ import annotations

import logging

import pytest
from channels.layers import get_channel_layer

from common import metrics
from config.channel_layer import PubSubLayer
from harness.ports import free_port
from live import outbox
from live.outbox import SendOutage, send_now
from lobby import events


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def outage(monkeypatch):
    clock = Clock()
    watcher = SendOutage(clock=clock)
    monkeypatch.setattr(outbox, "OUTAGE", watcher)
    return clock


def failures() -> float:
    return metrics.CHANNEL_LAYER_SEND_FAILURES._value.get()


async def test_an_outage_is_one_warning_when_it_starts_and_one_line_when_it_ends(outage, caplog):
    down = PubSubLayer(hosts=[f"redis://127.0.0.1:{free_port()}/0"])  # nothing listens there
    up = get_channel_layer()
    channel = await up.new_channel()
    await up.group_add(events.room_group("OUTAGE"), channel)
    before = failures()
    caplog.set_level(logging.INFO, logger="live.outbox")
    for n in range(5):  # five moves' broadcasts while Redis is down
        await send_now(down, events.room_group("OUTAGE"), {"type": "room.move", "n": n})
        outage.now += 1.5
    assert failures() - before == 5
    started = [r for r in caplog.records if r.name == "live.outbox"]
    assert len(started) == 1 and started[0].levelno == logging.WARNING and started[0].exc_info is None
    assert "room.move" in started[0].getMessage() and "ConnectionError" in started[0].getMessage()

    await send_now(up, events.room_group("OUTAGE"), {"type": "room.move", "n": 5})  # Redis is back
    await send_now(up, events.room_group("OUTAGE"), {"type": "room.move", "n": 6})
    assert [(await up.receive(channel))["n"] for _ in range(2)] == [5, 6]
    lines = [r.getMessage() for r in caplog.records if r.name == "live.outbox"]
    assert len(lines) == 2
    assert "again" in lines[1] and "7.5 s" in lines[1] and "5 sends" in lines[1]

    await send_now(down, events.room_group("OUTAGE"), {"type": "room.move", "n": 7})  # a second outage
    assert len([r for r in caplog.records if r.name == "live.outbox"]) == 3
    assert failures() - before == 6
