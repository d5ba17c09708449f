"""live.outbox.Outbox: a loop's messages to the channel layer, sent in commit order per target."""

from __future__ import annotations

import asyncio

from channels.layers import get_channel_layer

from live.outbox import Outbox
from lobby import events


async def test_a_cancelled_waiter_does_not_cancel_what_the_others_send():
    """A socket leaving waits for the outbox; daphne may cancel that wait. The shared drain goes on."""
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(events.room_group("OUTBX1"), channel)
    box = Outbox()
    release = asyncio.Event()
    real_send = layer.group_send

    async def slow_send(group, message):  # the channel layer is busy for a moment
        await release.wait()
        await real_send(group, message)

    layer.group_send = slow_send
    try:
        box.put(events.room_group("OUTBX1"), {"type": "room.notice", "n": 1})
        box.put(events.room_group("OUTBX1"), {"type": "room.notice", "n": 2})
        waiter = asyncio.get_running_loop().create_task(box.flush())
        await asyncio.sleep(0)
        waiter.cancel()
        await asyncio.gather(waiter, return_exceptions=True)
        release.set()
        await box.flush()
    finally:
        layer.group_send = real_send
    received = [await asyncio.wait_for(layer.receive(channel), 2) for _ in range(2)]
    assert [m["n"] for m in received] == [1, 2]


async def test_each_rooms_messages_are_sent_in_the_order_put():
    layer = get_channel_layer()
    channels = {code: await layer.new_channel() for code in ("ORDER1", "ORDER2")}
    for code, channel in channels.items():
        await layer.group_add(events.room_group(code), channel)
    box = Outbox()
    for n in range(5):
        for code in channels:
            box.put(events.room_group(code), {"type": "room.notice", "n": n})
    await box.flush()
    for channel in channels.values():
        assert [(await layer.receive(channel))["n"] for _ in range(5)] == [0, 1, 2, 3, 4]
