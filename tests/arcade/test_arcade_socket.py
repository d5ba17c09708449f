"""The arcade's websocket: a run's steps as the page sends them, answered in order as over HTTP."""

from __future__ import annotations

import json

import pytest
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from arcade.engine import CUBE2
from arcade.models import Step
from config.asgi import application
from live.offload import offload
from tests.arcade.arcadekit import run_placed
from tests.roomkit import make_player

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("runtime_cleanup")]


async def _socket(session_key: str | None) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    if session_key is not None:
        headers.append((b"cookie", f"sessionid={session_key}".encode()))
    comm = WebsocketCommunicator(application, "/ws/arcade/", headers=headers)
    connected, _ = await comm.connect(timeout=5)
    assert connected
    return comm


async def _ask(comm: WebsocketCommunicator, **frame: object) -> dict:
    await comm.send_to(text_data=json.dumps(frame))
    return json.loads(await comm.receive_from(timeout=10))


async def test_steps_queued_by_the_page_are_answered_in_order_and_a_retry_moves_once():
    player, key = await offload(make_player)("Ann")
    # Two 2s at the front and the back of the bottom layer's left column: left moves nothing, backward merges.
    run = await offload(run_placed)(player=player, mode=CUBE2, board=[2, 0, 2, 0, 0, 0, 0, 0], now=timezone.now())
    comm = await _socket(key)
    for ref, frame in enumerate(({"type": "move", "run": str(run.pk), "dir": "left", "n": 0},
                                 {"type": "move", "run": str(run.pk), "dir": "backward", "n": 0})):
        await comm.send_to(text_data=json.dumps({**frame, "ref": ref}))
    nothing, merged = [json.loads(await comm.receive_from(timeout=10)) for _ in range(2)]
    assert (nothing["type"], nothing["ref"], nothing["moved"], nothing["steps"]) == ("step", 0, False, 0)
    assert (merged["ref"], merged["moved"], merged["gained"], merged["steps"]) == (1, True, 4, 1)
    assert merged["run"] == str(run.pk) and len(merged["spawned"]) == 1
    again = await _ask(comm, type="move", run=str(run.pk), dir="backward", n=0, ref="again")
    assert again == {**merged, "ref": "again"}
    stale = await _ask(comm, type="move", run=str(run.pk), dir="right", n=0)
    assert (stale["type"], stale["code"], stale["run"]["steps"]) == ("error", "stale", 1)
    undone = await _ask(comm, type="undo", run=str(run.pk), n=1)
    assert undone["board"] == [2, 0, 2, 0, 0, 0, 0, 0] and undone["steps"] == 2
    assert (await _ask(comm, type="ping")) == {"type": "pong"}
    assert await offload(lambda: Step.objects.filter(run_id=run.pk).count())() == 2
    await comm.disconnect()


async def test_refusals_are_error_frames():
    comm = await _socket(None)
    assert (await _ask(comm, type="move", run="nope", dir="left", n=0))["code"] == "no_run"
    assert (await _ask(comm, type="jump"))["code"] == "bad_frame"
    assert (await _ask(comm, type="move", ref=["x"]))["code"] == "bad_frame"
    await comm.disconnect()


async def test_a_ban_closes_an_open_arcade_socket():
    from players.models import Player
    from players.services import player_ban

    player, key = await offload(make_player)("Ann")
    comm = await _socket(key)
    assert (await _ask(comm, type="ping")) == {"type": "pong"}  # open, and in its player's group
    await offload(player_ban)(player=await offload(Player.objects.get)(pk=player.pk), now=timezone.now())
    error = json.loads(await comm.receive_from(timeout=10))
    assert (error["type"], error["code"]) == ("error", "banned")
    assert (await comm.receive_output(timeout=10)) == {"type": "websocket.close", "code": 4403}
