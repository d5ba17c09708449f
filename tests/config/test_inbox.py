"""config.inbox.Inbox: a socket's queue, in order, for one receiver at a time."""

from __future__ import annotations

import asyncio

import pytest

from config.inbox import Inbox


async def test_items_come_out_in_the_order_put_and_a_receiver_waits_for_the_next():
    inbox = Inbox()
    for n in range(3):
        inbox.put_nowait(n)
    assert [await inbox.get() for _ in range(3)] == [0, 1, 2]
    waiting = asyncio.ensure_future(inbox.get())
    await asyncio.sleep(0)
    assert not waiting.done()
    inbox.put_nowait("late")
    assert await asyncio.wait_for(waiting, 1) == "late"
    again = asyncio.ensure_future(inbox.get())  # nothing left: the next receive waits
    await asyncio.sleep(0)
    assert not again.done()
    again.cancel()


async def test_a_receive_cancelled_while_waiting_takes_nothing():
    inbox = Inbox()
    waiting = asyncio.ensure_future(inbox.get())
    await asyncio.sleep(0)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    inbox.put_nowait("kept")
    assert await asyncio.wait_for(inbox.get(), 1) == "kept"


async def test_a_second_receiver_waiting_at_once_is_refused():
    inbox = Inbox()
    first = asyncio.ensure_future(inbox.get())
    await asyncio.sleep(0)
    with pytest.raises(RuntimeError, match="one receiver"):
        await inbox.get()
    inbox.put_nowait(1)
    assert await asyncio.wait_for(first, 1) == 1


async def test_an_item_put_while_a_receiver_waits_is_that_receivers():
    inbox = Inbox()
    first = asyncio.ensure_future(inbox.get())
    await asyncio.sleep(0)
    inbox.put_nowait(1)  # the first is woken; before it runs, another receive begins: it waits for the next
    second = asyncio.ensure_future(inbox.get())
    assert await asyncio.wait_for(first, 1) == 1
    await asyncio.sleep(0)
    assert not second.done()
    inbox.put_nowait(2)
    assert await asyncio.wait_for(second, 1) == 2
