"""A blocked player's chat reaches none of the blocker's devices, live or in the history; they are not told."""

from __future__ import annotations

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.utils import timezone

from live.offload import offload
from players.identity import session_attach
from players.models import Player
from players.social import block_add, block_remove
from tests.arenakit import account
from tests.lobby.chat.test_chat_consumers import close, histories, joined, settle, texts
from tests.roomkit import make_player_async, seated_pair

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("runtime_cleanup")]


@offload
def devices_of(player: Player, devices: int) -> list[str]:
    """The session keys of ``devices`` new devices signed in to ``player``."""
    keys = []
    for _ in range(devices):
        session = SessionStore()
        session_attach(session, player)
        session.save()
        assert session.session_key is not None
        keys.append(session.session_key)
    return keys


async def test_the_blocked_players_chat_reaches_none_of_the_blockers_devices_history_included():
    code, ann, bob = await seated_pair()
    cyd = await offload(account)("cyd")
    phone, laptop = await devices_of(cyd, 2)
    mal, mal_key = await make_player_async("Mal")
    on_phone, on_laptop, by_mal = await joined(code, phone), await joined(code, laptop), await joined(code, mal_key)
    _, dee_key = await make_player_async("Dee")
    dee = await joined(code, dee_key)

    await by_mal.send(type="say", chat="spectators", text="before")
    await dee.wait("chat", lambda f: f.get("text") == "before")
    await settle(on_phone, on_laptop)
    assert texts(on_phone) == texts(on_laptop) == ["before"]

    await offload(block_add)(blocker=cyd, blocked_id=mal.pk, now=timezone.now())
    for device in (on_phone, on_laptop):  # each device is sent the history anew, without Mal's messages
        await device.wait("chat_history", lambda f: f["messages"] == [])

    await by_mal.send(type="say", chat="spectators", text="after")
    await ann.send(type="say", chat="players", text="from ann")
    await dee.wait("chat", lambda f: f.get("text") == "from ann")
    await by_mal.wait("chat", lambda f: f.get("text") == "after")  # Mal sees their own message: not told
    await settle(on_phone, on_laptop, by_mal)
    assert texts(on_phone) == texts(on_laptop) == ["before", "from ann"]
    assert "error" not in [f["type"] for f in by_mal.log]
    assert texts(dee)[:2] == ["before", "after"]

    tablet = await joined(code, (await devices_of(cyd, 1))[0])  # a third device, later
    assert histories(tablet) == [["from ann"]]

    await offload(block_remove)(blocker=cyd, blocked_id=mal.pk, now=timezone.now())
    await on_phone.wait("chat_history", lambda f: len(f["messages"]) == 3)
    await close(ann, bob, on_phone, on_laptop, by_mal, dee, tablet)

