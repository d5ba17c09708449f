"""The arcade on two daphne processes (PostgreSQL + Redis). A bot plays every mode through its token, each
move sent to the other process than the one before. Then two devices play a run each on one process, one
over HTTP and one over the page's socket (``/ws/arcade/``); that process is killed with ``kill -9`` in the
middle of the moves, and both runs go on from the other with every acknowledged move in their records,
their scores checked by the replay when they end."""

from __future__ import annotations

import itertools
import json
import threading
import time
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.livekit import Device, LiveServer, postgres_redis_servers

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

DIRECTIONS = ("left", "backward", "right", "forward", "down", "up")
FLAT = ("left", "up", "right", "down")
PASSWORD = "four-in-a-row-3d!"


def bot_plays_every_mode_on_both(one: LiveServer, two: LiveServer) -> None:
    account = Device(one.http)
    account.request("GET", "/api/session")
    account.expect("POST", "/api/accounts/register", {"username": "robo", "password": PASSWORD}, ok=(201,))
    token = account.expect("POST", "/api/accounts/tokens", {"description": "bot"}, ok=(201,))["token"]
    bot = Device(one.http)
    bot.opener.addheaders = [("Authorization", f"Bearer {token}")]
    modes = [mode["id"] for mode in bot.expect("GET", "/api/arcade/modes")]
    assert modes == ["classic", "cube2", "cube3", "cube3-hard"]
    servers = itertools.cycle((one.http, two.http))
    for mode in modes:
        run = bot.expect("POST", "/api/arcade/runs", {"mode": mode}, ok=(201,))
        assert run["bot"] is True
        steps, moved = 0, 0
        for direction in (DIRECTIONS if mode != "classic" else FLAT) * 2:
            status, answer = bot.request("POST", f"/api/arcade/runs/{run['id']}/move",
                                         {"dir": direction, "n": steps}, base=next(servers))
            assert status == 200, answer
            steps, moved = answer["steps"], moved + answer["moved"]
            if answer["status"] != "playing":
                break
        ended = bot.request("POST", f"/api/arcade/runs/{run['id']}/end", {"n": steps}, base=next(servers))[1]
        assert moved >= 2 and ended["status"] == "ended", ended
        public = Device(next(servers)).expect("GET", f"/api/arcade/runs/{run['id']}")
        assert public["ranked_score"] == ended["peak"] and len(public["record"]["steps"]) == ended["steps"]
        rows = Device(two.http).expect("GET", f"/api/arcade/scores?mode={mode}&board=bots")["rows"]
        assert [row["run"] for row in rows] == [run["id"]]


def arcade_socket(server: LiveServer, device: Device) -> ClientConnection:
    return connect(server.ws + "/ws/arcade/", additional_headers={"Cookie": device.cookie_header(),
                                                                 "Origin": server.http}, open_timeout=10)


def socket_step(conn: ClientConnection, frame: dict[str, Any]) -> dict[str, Any]:
    conn.send(json.dumps(frame))
    answer: dict[str, Any] = json.loads(conn.recv(timeout=10))
    return answer


def test_a_kill_9_loses_no_acknowledged_move_and_the_runs_go_on_elsewhere(tmp_path):
    # Moves as fast as the answers come: no quota of moves a second in the way.
    with postgres_redis_servers(tmp_path, ARCADE_MOVES_PER_SECOND_PER_RUN=str(10**6)) as (one, two):
        bot_plays_every_mode_on_both(one, two)
        device = Device(one.http)
        device.join("Ann")
        run = device.expect("POST", "/api/arcade/runs", {"mode": "cube3"}, ok=(201,))
        page = Device(one.http)
        page.join("Bob")
        paged = page.expect("POST", "/api/arcade/runs", {"mode": "cube3"}, ok=(201,))
        acked: list[dict] = []
        paged_acked: list[dict] = []
        pending: dict[str, Any] = {}  # the socket's move in flight, unanswered
        stop = threading.Event()

        def play() -> None:
            steps = 0
            for direction in itertools.cycle(DIRECTIONS):
                if stop.is_set():
                    return
                try:
                    status, answer = device.request("POST", f"/api/arcade/runs/{run['id']}/move",
                                                    {"dir": direction, "n": steps})
                except OSError:
                    return  # the server died with this move in flight: not acknowledged
                assert status == 200, answer
                if answer["moved"]:
                    acked.append(answer)
                    steps = answer["steps"]

        def play_socket() -> None:
            with arcade_socket(one, page) as conn:
                steps = 0
                for ref, direction in enumerate(itertools.cycle(DIRECTIONS)):
                    if stop.is_set():
                        return
                    pending.update(type="move", run=paged["id"], dir=direction, n=steps, ref=ref)
                    try:
                        answer = socket_step(conn, pending)
                    except (ConnectionClosed, OSError, TimeoutError):
                        return  # the server died with this move in flight: not acknowledged
                    if answer.get("code") == "rate_limited":  # the socket's frames a second: not played, sent again
                        pending.clear()
                        time.sleep(0.2)
                        continue
                    assert answer["type"] == "step" and answer["ref"] == ref, answer
                    pending.clear()
                    if answer["moved"]:
                        paged_acked.append(answer)
                        steps = answer["steps"]

        players = [threading.Thread(target=play), threading.Thread(target=play_socket)]
        for player in players:
            player.start()
        deadline = time.monotonic() + 60
        while (len(acked) < 30 or len(paged_acked) < 30) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(acked) >= 30 and len(paged_acked) >= 30
        one.kill()
        stop.set()
        for player in players:
            player.join(30)
        last = acked[-1]
        # The other process: the run is where the last acknowledged move left it, or one step on (a move
        # committed as the process died, its answer lost).
        status, found = device.request("GET", "/api/arcade/runs?mode=cube3&status=playing", base=two.http)
        assert status == 200 and [r["id"] for r in found] == [run["id"]]
        now = found[0]
        assert now["steps"] in (last["steps"], last["steps"] + 1), (now["steps"], last["steps"])
        if now["steps"] == last["steps"]:
            assert now["board"] == last["board"] and now["score"] == last["score"]
        steps = now["steps"]
        for direction in DIRECTIONS * 2:
            status, answer = device.request("POST", f"/api/arcade/runs/{run['id']}/move",
                                            {"dir": direction, "n": steps}, base=two.http)
            assert status == 200, answer
            steps = answer["steps"]
        ended = device.request("POST", f"/api/arcade/runs/{run['id']}/end", {"n": steps}, base=two.http)[1]
        assert ended["status"] == "ended"
        public = Device(two.http).expect("GET", f"/api/arcade/runs/{run['id']}")
        moves = [step for step in public["record"]["steps"] if step["op"] == "move"]
        assert [step["spawned"] for step in moves[:len(acked)]] == [answer["spawned"] for answer in acked]
        assert public["ranked_score"] == ended["peak"]

        # The socket's run, on a socket of the other process, as the page reconnects: the move left
        # unanswered sent again (answered as it was if it was committed), then on to the end.
        with arcade_socket(two, page) as conn:
            steps = paged_acked[-1]["steps"]
            if pending:
                answer = socket_step(conn, pending)
                assert answer["type"] == "step" and answer["steps"] in (steps, steps + 1), answer
                steps = answer["steps"]
            for ref, direction in enumerate(DIRECTIONS * 2):
                answer = socket_step(conn, {"type": "move", "run": paged["id"], "dir": direction, "n": steps,
                                            "ref": ref})
                assert answer["type"] == "step" and answer["ref"] == ref, answer
                steps = answer["steps"]
            ended = socket_step(conn, {"type": "end", "run": paged["id"], "n": steps})
        assert ended["type"] == "step" and ended["status"] == "ended", ended
        public = Device(two.http).expect("GET", f"/api/arcade/runs/{paged['id']}")
        moves = [step for step in public["record"]["steps"] if step["op"] == "move"]
        assert [step["spawned"] for step in moves[:len(paged_acked)]] == [answer["spawned"] for answer in paged_acked]
        assert public["ranked_score"] == ended["peak"]
        assert not two.log_errors()
