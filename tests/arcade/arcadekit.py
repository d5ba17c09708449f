"""Devices, runs and moves for the arcade's tests: HTTP calls as the page and the bots make them."""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

from django.test import Client

from arcade.engine import Mode, mode_by_id, run_at
from arcade.models import Run
from arcade.state import state_values
from arcade.writes import HELD
from players.models import Player
from players.services import player_create


def device(name: str = "Ann") -> tuple[Client, str]:
    """A device with a guest player: ``(client, player id)``."""
    client = Client()
    answer = client.post("/api/session", {"name": name}, content_type="application/json")
    assert answer.status_code == 201, answer.content
    return client, answer.json()["player"]["id"]


def post(client: Client, path: str, data: object = None, **extra: Any) -> tuple[int, dict[str, Any]]:
    answer = client.post(path, data if data is not None else {}, content_type="application/json", **extra)
    return answer.status_code, answer.json()


def start(client: Client, mode: str = "cube3", **extra: Any) -> dict[str, Any]:
    status, body = post(client, "/api/arcade/runs", {"mode": mode}, **extra)
    assert status == 201, body
    return body


def move(client: Client, run_id: str, direction: str, n: int | None, **extra: Any) -> tuple[int, dict[str, Any]]:
    data: dict[str, Any] = {"dir": direction}
    if n is not None:
        data["n"] = n
    return post(client, f"/api/arcade/runs/{run_id}/move", data, **extra)


def play_until_moved(client: Client, run: dict[str, Any], rng: random.Random, **extra: Any) -> dict[str, Any]:
    """Moves in random directions until one moves; its answer."""
    directions = [d.value for d in mode_by_id(run["mode"]).shape.directions]
    for _ in range(50):
        status, body = move(client, run["id"], rng.choice(directions), run["steps"], **extra)
        assert status == 200, body
        if body["moved"]:
            return body
    raise AssertionError("no move moved in 50 tries")


def play_moves(client: Client, run: dict[str, Any], count: int, *, seed: int = 1, **extra: Any) -> dict[str, Any]:
    """Up to ``count`` moves that moved (fewer if the run stops); the last answer."""
    rng = random.Random(seed)
    answer = run
    for _ in range(count):
        answer = {**run, **play_until_moved(client, {**run, "steps": answer["steps"]}, rng, **extra)}
        if answer["status"] != "playing":
            break
    return answer


def run_placed(*, player: Player, mode: Mode, board: list[int], now: datetime, score: int = 0) -> Run:
    """An open run put at ``board`` directly (its record does not replay to it: closing it ranks nothing)."""
    state = run_at(mode=mode, board=board, score=score)
    run = Run(mode=mode.id, player=player, opening=[], move_cap=state.move_cap, board=[], started_at=now, played_at=now)
    for column, value in zip(("board", "score", "moves", "played", "status", "continued", "reached_target", "slot",
                              "peak", "peak_tile"), state_values(state), strict=True):
        setattr(run, column, value)
    run.save()
    HELD.drop(str(run.pk))
    return run


def a_player(name: str, now: datetime) -> Player:
    return player_create(name=name, now=now)


def directions_of(mode_id: str) -> list[str]:
    return [d.value for d in mode_by_id(mode_id).shape.directions]

