"""The arcade on two daphne processes (PostgreSQL + Redis): a run played on one, that process killed with
``kill -9`` in the middle of the moves, goes on from the other with every acknowledged move in its record,
and its score is checked by the replay when it ends."""

from __future__ import annotations

import itertools
import threading
import time

import pytest

from tests.livekit import Device, postgres_redis_servers

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

DIRECTIONS = ("left", "backward", "right", "forward", "down", "up")


def test_a_kill_9_loses_no_acknowledged_move_and_the_run_goes_on_elsewhere(tmp_path):
    # Moves as fast as the answers come: no quota of moves a second in the way.
    with postgres_redis_servers(tmp_path, ARCADE_MOVES_PER_SECOND_PER_RUN=str(10**6)) as (one, two):
        device = Device(one.http)
        device.join("Ann")
        run = device.expect("POST", "/api/arcade/runs", {"mode": "cube3"}, ok=(201,))
        acked: list[dict] = []
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

        player = threading.Thread(target=play)
        player.start()
        deadline = time.monotonic() + 60
        while len(acked) < 30 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(acked) >= 30
        one.kill()
        stop.set()
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
        assert not two.log_errors()
