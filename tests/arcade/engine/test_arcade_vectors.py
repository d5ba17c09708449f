"""The shared vectors (arcade/engine/vectors.json) through the engine: ARCADE.md's golden cases, checked by
hand, and the engine's own earlier results; frontend/tests/arcade-rules.test.js runs the same file through
the page's rules."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from arcade.engine import (
    MODES,
    ArcadeError,
    BadRecord,
    Record,
    RunState,
    continue_run,
    end_run,
    is_stuck,
    mode_by_id,
    play_dealt,
    replay,
    run_at,
    slide,
    slide_line,
    undo,
)
from arcade.engine.record import MoveStep
from scripts.arcade_vectors import VECTORS, build, render

VECTOR_DATA: dict[str, Any] = json.loads(VECTORS.read_text())


def cases(kind: str) -> list[Any]:
    return [pytest.param(case, id=f"{kind}{index}-{case.get('mode', '')}{'-golden' if 'why' in case else ''}")
            for index, case in enumerate(VECTOR_DATA[kind])]


def test_the_file_is_what_the_script_writes() -> None:
    assert Path(__file__).resolve().parents[3] / "arcade" / "engine" / "vectors.json" == VECTORS
    assert VECTORS.read_text() == render(build()), "stale: run .venv/bin/python scripts/arcade_vectors.py"


def test_every_kind_has_golden_cases_and_the_modes_are_the_engines() -> None:
    for kind in ("lines", "slides", "stuck", "moves", "records"):
        assert any("why" in case for case in VECTOR_DATA[kind]), kind
    assert [mode["id"] for mode in VECTOR_DATA["modes"]] == ["classic", "cube2", "cube3", "cube3-hard"]
    for data in VECTOR_DATA["modes"]:
        mode = MODES[data["id"]]
        assert (data["shape"], data["four_rate"], data["spawns"], data["target"], data["undo"]) == (
            list(mode.shape.extent), mode.four_rate, mode.spawns, mode.target, mode.undo)


@pytest.mark.parametrize("case", cases("lines"))
def test_line(case: dict[str, Any]) -> None:
    done = slide_line(case["line"])
    assert (list(done.values), done.gained) == (case["after"], case["gained"])


@pytest.mark.parametrize("case", cases("slides"))
def test_slide(case: dict[str, Any]) -> None:
    mode = mode_by_id(case["mode"])
    done = slide(tuple(case["board"]), shape=mode.shape, direction=mode.shape.direction(case["dir"]))
    assert (list(done.board), done.gained, done.moved) == (case["after"], case["gained"], case["moved"])
    if "merged" in case:
        assert list(done.merged) == case["merged"]


@pytest.mark.parametrize("case", cases("stuck"))
def test_stuck(case: dict[str, Any]) -> None:
    assert is_stuck(tuple(case["board"]), shape=mode_by_id(case["mode"]).shape) is case["stuck"]


def expect(state: RunState, wanted: Mapping[str, Any]) -> None:
    seen = {"board": list(state.board), "score": state.score, "peak_score": state.peak_score,
            "peak_tile": state.peak_tile, "moves": state.moves, "played": state.played, "status": state.status.value,
            "can_undo": state.can_undo, "reached_target": state.reached_target}
    assert {key: seen[key] for key in wanted} == dict(wanted)


def step(state: RunState, data: Mapping[str, Any]) -> RunState:
    """One step as a move played live: a move that moves nothing is allowed and changes nothing."""
    if data["op"] == "move":
        (parsed,) = Record.from_json({"mode": state.mode.id, "opening": [], "steps": [data]}).steps
        assert isinstance(parsed, MoveStep)
        return play_dealt(state, parsed.direction, spawns=parsed.spawned).state
    return {"undo": undo, "continue": continue_run, "end": end_run}[data["op"]](state)


@pytest.mark.parametrize("case", cases("moves"))
def test_moves_from_a_position(case: dict[str, Any]) -> None:
    at = case["at"]
    state = run_at(mode=mode_by_id(case["mode"]), board=at["board"], score=at.get("score", 0))
    wanted = case["expect"]
    for index, data in enumerate(case["steps"]):
        if "error" in wanted and index == wanted["step"]:
            with pytest.raises(ArcadeError) as caught:
                step(state, data)
            assert caught.value.code == wanted["error"]
            return
        state = step(state, data)
    assert "error" not in wanted
    expect(state, wanted)


@pytest.mark.parametrize("case", cases("records"))
def test_record_replay(case: dict[str, Any]) -> None:
    record = Record.from_json(case["record"])
    assert record.to_json() == {"steps": [], **case["record"]}
    wanted = case["expect"]
    if "error" in wanted:
        with pytest.raises(BadRecord) as caught:
            replay(record)
        assert caught.value.step == wanted["step"]
        assert isinstance(caught.value.__cause__, ArcadeError)
        assert caught.value.__cause__.code == wanted["error"]
    else:
        expect(replay(record), wanted)
