"""Every mode played to its end by each kind of player on each transport (one process): a bot through its
token over HTTP, a guest and an account over the page's socket; each run's record replays to its ranked
score, on the board of its kind."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client

from arcade.engine import MODES, Record, replay
from config.asgi import application
from live.offload import offload
from live.socket import FRAMES_PER_SECOND
from tests.arcade.arcadekit import directions_of, start
from tests.bots.botkit import Api, account, bot, session_post, signed_in

Ask = Callable[[str, dict[str, Any]], Awaitable[tuple[str, dict[str, Any]]]]  # (op, body) -> (kind, answer)
MOVES = 8  # moves that moved, a run


@pytest.fixture
def quick(settings):
    settings.ARCADE_MOVES_PER_SECOND_PER_RUN = 1_000_000


async def play_run(run: dict[str, Any], ask: Ask) -> dict[str, Any]:
    """``MOVES`` moves that moved (fewer if the run stops), on the cubes an undo and the move again, then
    the end: the end's answer. ``ask(op, body)`` sends one step and answers ``("step" | code, body)``."""
    directions, steps, moved, last = directions_of(run["mode"]), run["steps"], 0, run
    for i in range(MOVES * 20):
        kind, answer = await ask("move", {"dir": directions[i % len(directions)], "n": steps})
        assert kind == "step", answer
        if answer["moved"]:
            assert answer["steps"] == steps + 1 and len(answer["spawned"]) in (1, 2)
            moved += 1
            last = answer
        else:
            assert answer["steps"] == steps and answer["spawned"] == []
        steps = answer["steps"]
        if answer["status"] != "playing" or moved == MOVES:
            break
    assert moved >= 2, (run["mode"], moved)
    if MODES[run["mode"]].undo and last["can_undo"]:
        kind, undone = await ask("undo", {"n": steps})
        assert kind == "step" and undone["moves"] == last["moves"] - 1 and undone["can_undo"] is False, undone
        kind, refused = await ask("undo", {"n": undone["steps"]})
        assert (kind, refused["code"]) == ("undo_spent", "undo_spent")
        steps = undone["steps"]
    elif not MODES[run["mode"]].undo:
        kind, refused = await ask("undo", {"n": steps})
        assert kind == "no_undo", refused
    kind, ended = await ask("end", {"n": steps})
    assert kind == "step" and ended["status"] == "ended" and ended["steps"] == steps + 1, ended
    return ended


def checked(viewer: Client, run_id: str, ended: dict[str, Any], *, bot: bool) -> None:
    """The closed run is public, its record replays to its ranked score, and it ranks on its board."""
    public = viewer.get(f"/api/arcade/runs/{run_id}").json()
    assert public["closed_at"] is not None and public["bot"] is bot
    record = Record.from_json(public["record"])
    assert len(record.steps) == ended["steps"] and replay(record).peak_score == public["ranked_score"] == ended["peak"]
    rows = viewer.get(f"/api/arcade/scores?mode={public['mode']}&board={'bots' if bot else 'players'}").json()["rows"]
    assert [row["run"] for row in rows if row["player"]["id"] == public["player"]["id"]] == [run_id]


@pytest.mark.django_db(transaction=True)
async def test_a_bot_plays_every_mode_through_its_token(quick):
    _, secret = await offload(bot)("robo")
    api = Api(secret)
    for mode in MODES:
        run = (await offload(api.post)("/api/arcade/runs", {"mode": mode})).json()
        assert run["bot"] is True and run["mode"] == mode, run

        async def ask(op: str, body: dict[str, Any], run_id: str = run["id"]) -> tuple[str, dict[str, Any]]:
            answer = await offload(api.post)(f"/api/arcade/runs/{run_id}/{op}", body)
            data = answer.json()
            return ("step" if answer.status_code == 200 else data["code"]), data

        ended = await play_run(run, ask)
        await offload(checked)(Client(), run["id"], ended, bot=True)


async def socket_of(client: Client) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost"),
               (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())]
    comm = WebsocketCommunicator(application, "/ws/arcade/", headers=headers)
    assert (await comm.connect(timeout=5))[0]
    return comm


async def play_over_socket(client: Client, start_run: Callable[[str], dict[str, Any]]) -> set[str]:
    """Every mode, each run started over HTTP (as the page does: the first start may make the device's
    guest) and played over one socket, opened after the first start: the ids of the runs' players."""
    comm: WebsocketCommunicator | None = None
    players: set[str] = set()
    for ref, mode in enumerate(MODES):
        run = await offload(start_run)(mode)
        assert run["bot"] is False and run["mode"] == mode, run
        players.add(run["player"]["id"])
        socket = comm = comm or await socket_of(client)

        async def ask(op: str, body: dict[str, Any], run_id: str = run["id"], ref: int = ref,
                      socket: WebsocketCommunicator = socket) -> tuple[str, dict]:
            while True:
                await socket.send_to(text_data=json.dumps({"type": op, "run": run_id, "ref": ref, **body}))
                frame = json.loads(await socket.receive_from(timeout=10))
                if not (frame.get("code") == "rate_limited" and "ref" not in frame):
                    break
                # The socket's frames a second (live.socket.FRAMES_PER_SECOND), spent by a client faster than any
                # page: the frame was not read, so it is sent again once the bucket has refilled a little.
                await asyncio.sleep(1 / FRAMES_PER_SECOND)
            assert frame["ref"] == ref and (frame["type"] == "error" or frame["run"] == run_id), frame
            return ("step" if frame["type"] == "step" else frame["code"]), frame

        ended = await play_run(run, ask)
        await offload(checked)(client, run["id"], ended, bot=False)
    assert comm is not None
    await comm.disconnect()
    return players


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("runtime_cleanup")
async def test_a_guest_plays_every_mode_over_the_socket(quick):
    client = Client()
    players = await play_over_socket(client, lambda mode: start(client, mode))  # the first start makes the guest
    session = (await offload(client.get)("/api/session")).json()
    assert players == {session["player"]["id"]} and session["player"]["name"].startswith("Guest ")


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("runtime_cleanup")
async def test_an_account_plays_every_mode_over_the_socket(quick):
    anna = await offload(account)("anna")
    browser = await offload(signed_in)(anna)

    def start_run(mode: str) -> dict[str, Any]:
        answer = session_post(browser, "/api/arcade/runs", {"mode": mode})
        assert answer.status_code == 201, answer.content
        return dict(answer.json())

    assert await play_over_socket(browser, start_run) == {str(anna.id)}
