"""The embedded default's channel layer (``config.local_layer.LocalLayer``, Channels' in-memory layer):
a socket's channel goes into its inbox, a group send reaches each member once, a released channel leaves
its groups, a channel received from is Channels' own still, and the expired messages are swept at most
once every ``sweep_seconds`` (its clock injected)."""

from __future__ import annotations

import asyncio

import pytest
from channels.exceptions import ChannelFull

from config.inbox import Inbox
from config.local_layer import LocalLayer


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _drain(inbox: Inbox[object]) -> list[object]:
    items = list(inbox._items)
    inbox._items.clear()
    return items


async def test_a_group_send_reaches_each_inbox_once_and_a_received_channel_too():
    layer = LocalLayer()
    one, two = Inbox[object](), Inbox[object]()
    first, second = await layer.new_channel_into(one), await layer.new_channel_into(two)
    received = await layer.new_channel()
    for channel in (first, second, received):
        await layer.group_add("room-1", channel)
    await layer.group_add("room-2", second)
    note = {"type": "room.note", "text": "hello"}
    await layer.group_send("room-1", note)
    note["text"] = "changed after"  # the sender's dict is its own: what was sent is a copy
    assert _drain(one) == _drain(two) == [{"type": "room.note", "text": "hello"}]
    assert await asyncio.wait_for(layer.receive(received), 5) == {"type": "room.note", "text": "hello"}
    await layer.send(first, {"type": "direct"})  # a send to one channel: its inbox alone
    assert _drain(one) == [{"type": "direct"}] and _drain(two) == []


async def test_a_released_channel_leaves_its_groups_and_hears_nothing():
    layer = LocalLayer()
    inbox = Inbox[object]()
    channel = await layer.new_channel_into(inbox)
    await layer.group_add("room-1", channel)
    layer.release_channel(channel)
    assert "room-1" not in layer.groups or channel not in layer.groups["room-1"]
    await layer.group_send("room-1", {"type": "room.note"})
    assert _drain(inbox) == []


async def test_expired_messages_are_swept_once_a_sweep_interval_not_on_every_send():
    clock = Clock()
    layer = LocalLayer(expiry=60, capacity=1, sweep_seconds=1.0, clock=clock)
    unread = await layer.new_channel()
    await layer.group_add("room-1", unread)
    await layer.send(unread, {"type": "old"})  # never received: it expires in Channels' own time
    with pytest.raises(ChannelFull):
        await layer.send(unread, {"type": "more"})
    layer.channels[unread]._queue[0] = (0.0, {"type": "old"})  # expired already
    await layer.group_send("room-1", {"type": "note"})  # the first sweep: the expired message goes
    assert unread not in layer.groups.get("room-1", {})  # and with it the channel's memberships (Channels')
    await layer.group_add("room-1", unread)
    await layer.send(unread, {"type": "again"})
    layer.channels[unread]._queue[0] = (0.0, {"type": "again"})
    clock.now += 0.5
    await layer.group_send("room-1", {"type": "note"})  # within the interval: no sweep
    assert unread in layer.groups["room-1"]
    clock.now += 0.5
    await layer.group_send("room-1", {"type": "note"})  # the interval past: swept
    assert unread not in layer.groups.get("room-1", {})
