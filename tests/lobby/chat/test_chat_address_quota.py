"""The chat's quota per client address (issue 47): guests cost nothing, so the messages of every player writing
from one address are counted together, over the socket's own address (the ASGI scope's ``client``, which
daphne's ``--proxy-headers`` fills from nginx's ``X-Forwarded-For``)."""

from __future__ import annotations

import pytest

from lobby.chat import limits
from tests.roomkit import Client, make_player_async, make_room_async

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("runtime_cleanup")]


async def spectator_at(code: str, name: str, address: str) -> Client:
    """A player with no seat, connected to room ``code`` from ``address``, the chat's history received."""
    _, key = await make_player_async(name)
    client = Client(code, key)
    client.comm.scope["client"] = [address, 40000]  # what daphne puts there: the peer, or the proxy's word
    await client.connect()
    await client.wait("chat_history")
    return client


async def say(client: Client, text: str) -> dict:
    """What ``client`` hears back for saying ``text``: its message, or an error frame."""
    await client.send(type="say", chat="spectators", text=text)
    while True:
        frame = await client.next_frame()
        if frame["type"] == "error" or (frame["type"] == "chat" and frame.get("text") == text):
            return frame


async def test_the_players_of_one_address_share_its_chat_quota_and_another_address_is_not_counted(monkeypatch):
    monkeypatch.setattr(limits, "MESSAGES_PER_MINUTE_PER_ADDRESS", 4)
    host, _ = await make_player_async("Ann")
    code = await make_room_async(host)
    guests = [await spectator_at(code, f"Guest {n}", "10.7.7.7") for n in range(3)]
    elsewhere = await spectator_at(code, "Dee", "10.8.8.8")
    for n, guest in enumerate(guests[:2]):  # four messages, two a player: each well inside their own limit
        for m in range(2):
            assert (await say(guest, f"g{n}-{m}"))["type"] == "chat"
    refused = await say(guests[2], "one too many")
    assert refused["code"] == "rate_limited" and "address" in refused["message"]
    assert (await say(elsewhere, "still heard"))["type"] == "chat"
    for client in (*guests, elsewhere):
        await client.close()
