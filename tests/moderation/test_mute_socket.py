"""A mute over the room socket: the muted player's say is answered with a muted error frame naming the
end; the other player still talks."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from live.offload import offload
from lobby.models import Seat
from moderation.models import Action
from tests.roomkit import seated_pair

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("runtime_cleanup")]


@offload
def mute_seat(code: str, number: int) -> Action:
    player = Seat.objects.get(room__code=code, number=number).player
    now = timezone.now()
    return Action.objects.create(player=player, kind="mute", created_at=now, until=now + timedelta(days=7))


async def test_a_muted_player_is_refused_on_the_socket():
    code, ann, bob = await seated_pair()
    mute = await mute_seat(code, 2)
    await bob.send(type="say", chat="players", text="you again?")
    error = await bob.error()
    assert error["code"] == "muted" and f"{mute.until:%Y-%m-%d %H:%M} UTC" in error["message"]
    await ann.send(type="say", chat="players", text="hello")
    await bob.wait("chat", lambda f: f.get("text") == "hello")
    assert not any(f["type"] == "chat" and f.get("text") == "you again?" for f in ann.log)
    await ann.close()
    await bob.close()
