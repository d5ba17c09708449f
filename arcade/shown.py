"""What the API shows of a run (docs/arcade.md, "The API"): its JSON, a step's answer, its record's JSON."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from arcade.engine import Record, RunState, Spawn
from common.iso import iso


@dataclass(frozen=True, slots=True)
class RunShown:
    """A run as it is shown: its id, its player and its state (a held copy's, or its row's)."""

    run_id: str
    state: RunState
    steps: int
    best_before: int
    bot: bool
    player: dict[str, Any] | None = None  # players.selectors.player_json; None: left out
    started_at: datetime | None = None
    closed_at: datetime | None = None
    ranked_score: int | None = None
    record: Record | None = field(default=None, repr=False)


def run_json(run: RunShown) -> dict[str, Any]:
    """A run: what ``POST /api/arcade/runs`` and ``GET /api/arcade/runs/{id}`` answer (the record once closed)."""
    state, mode = run.state, run.state.mode
    body: dict[str, Any] = {
        "id": run.run_id, "mode": mode.id, "shape": list(mode.shape.extent), "board": list(state.board),
        "score": state.score, "best": max(run.best_before, state.peak_score), "peak": state.peak_score,
        "top_tile": state.peak_tile, "moves": state.moves, "steps": run.steps, "status": state.status.value,
        "can_undo": state.can_undo, "reached_target": state.reached_target, "four_rate": mode.four_rate,
        "spawns": mode.spawns, "target": mode.target, "move_cap": state.move_cap, "bot": run.bot,
    }
    if run.player is not None:
        body["player"] = run.player
    if run.started_at is not None:
        body["started_at"] = iso(run.started_at)
        body["closed_at"] = None if run.closed_at is None else iso(run.closed_at)
        body["ranked_score"] = run.ranked_score
    if run.record is not None:
        body["record"] = run.record.to_json()
    return body


def spawns_shown(spawns: Iterable[Spawn]) -> list[dict[str, int]]:
    return [{"cell": spawn.cell, "value": spawn.value} for spawn in spawns]


def step_json(run: RunShown, *, moved: bool, spawned: Iterable[Spawn], gained: int) -> dict[str, Any]:
    """The answer to a move (and to an undo, a continue, an end): what it did, and the run after it."""
    state = run.state
    return {
        "moved": moved, "board": list(state.board), "spawned": spawns_shown(spawned), "gained": gained,
        "score": state.score, "best": max(run.best_before, state.peak_score), "peak": state.peak_score,
        "top_tile": state.peak_tile, "moves": state.moves, "steps": run.steps, "status": state.status.value,
        "can_undo": state.can_undo,
    }
