"""The analysis JSON (the server and the replay page build on it), the command line and the budget."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import PegFull
from games.engine.analyse import (
    ANALYSIS_VERSION,
    EvalKind,
    OverBudget,
    analyse_game,
    analyse_position,
    main,
)
from tests.games.engine.brute_force import BruteForce

ROOT = Path(__file__).resolve().parents[4]
WON = "a1 a4 b1 b4 c1 c4 b2 d4"  # Yellow wins with its last move
UNFINISHED = "a1 a4 b1"
# A drawn ending with 14 cells left (the brute force agrees below); settling it needs the optional proofs.
DRAWN_ENDING = (
    "b4 c4 c4 d4 c3 c4 c3 c1 d1 c2 a2 b4 a4 c1 b1 b3 b1 d4 d2 b3 b1 d3 b2 b1 b2 a1 c1 b3 c1 c2 a3 b4 c4 d2 "
    "a2 d4 b3 a4 c3 a3 a4 a3 d1 a2 a3 c3 d4 a4 a1 a1"
)
EVAL_KEYS = ["kind", "plies", "move", "score", "depth", "nodes"]
PLY_KEYS = ["ply", "to_move", "eval", "played", "mark"]
MOMENT_KEYS = ["ply", "move_number", "colour", "peg", "kind", "text", "better"]


def test_the_json_has_exactly_the_agreed_shape() -> None:
    data = analyse_game(WON, time_budget_s=None).to_json()
    assert list(data) == ["version", "plies", "moments"]
    assert data["version"] == ANALYSIS_VERSION == 2
    plies = data["plies"]
    assert isinstance(plies, list) and len(plies) == len(WON.split()) + 1
    moves = WON.split()
    for index, entry in enumerate(plies):
        assert list(entry) == PLY_KEYS
        assert list(entry["eval"]) == EVAL_KEYS
        assert entry["ply"] == index
        assert entry["played"] == (moves[index] if index < len(moves) else None)
        assert entry["eval"]["kind"] in {"forced_win", "forced_loss", "draw", "heuristic", "final"}
        assert entry["mark"] in {"missed_win", "slower_win", "blunder", "only_move", "best", None}
        assert isinstance(entry["eval"]["nodes"], int)
        if entry["eval"]["kind"] == "heuristic":
            assert isinstance(entry["eval"]["score"], int) and entry["eval"]["plies"] is None
            assert isinstance(entry["eval"]["depth"], int)
        elif entry["eval"]["kind"] != "final":
            assert entry["eval"]["score"] is None and isinstance(entry["eval"]["plies"], int)
    assert [entry["to_move"] for entry in plies] == ["red", "yellow"] * 4 + [None]
    assert plies[-1]["eval"] == {"kind": "final", "plies": None, "move": None, "score": None, "depth": None, "nodes": 0}
    moments = data["moments"]
    assert isinstance(moments, list) and moments
    for moment in moments:
        assert list(moment) == MOMENT_KEYS
    assert moments[0] == {
        "ply": 5,
        "move_number": 6,
        "colour": "yellow",
        "peg": "c4",
        "kind": "blunder",
        "text": "Move 6, Yellow c4: after this Red wins by force in 1",
        "better": "d1",
    }
    json.dumps(data)  # plain JSON types only


def test_an_unfinished_game_ends_on_a_position_to_play() -> None:
    data = analyse_game(UNFINISHED, time_budget_s=None).to_json()
    last = data["plies"][-1]  # type: ignore[index]
    assert last["to_move"] == "yellow" and last["played"] is None and last["mark"] is None
    assert last["eval"]["kind"] == "heuristic" and last["eval"]["move"] is not None


def test_the_empty_record_is_the_empty_board() -> None:
    analysis = analyse_game("", time_budget_s=None)
    assert len(analysis.plies) == 1 and analysis.moments == ()
    assert analysis.plies[0].eval.kind is EvalKind.HEURISTIC


def test_a_bad_record_raises_the_engine_error_of_its_first_bad_move() -> None:
    with pytest.raises(PegFull) as raised:
        analyse_game("a1 a1 a1 a1 a1")
    assert raised.value.ply == 4


def test_the_analysis_is_deterministic_under_a_node_budget() -> None:
    first = analyse_game(WON, node_budget=5_000, time_budget_s=None).to_json()
    # A CPU budget it stays within (the thread's real CPU time) changes nothing either.
    assert analyse_game(WON, node_budget=5_000, time_budget_s=None, cpu_budget_s=60).to_json() == first


def test_the_optional_proofs_settle_an_ending_and_stop_when_the_budget_is_spent() -> None:
    brute = BruteForce()
    mover, other = brute.board(DRAWN_ENDING)
    assert not brute.wins_within(mover, other, 14) and not brute.loses_within(mover, other, 14)
    solved = analyse_position(DRAWN_ENDING, time_budget_s=None)
    assert (solved.kind, solved.plies) == (EvalKind.DRAW, 14)
    # No nodes to spend: only the guaranteed proofs and the heuristic search run.
    assert analyse_position(DRAWN_ENDING, node_budget=0, time_budget_s=None).kind is EvalKind.HEURISTIC
    # A clock already past the deadline: the same (each call of this clock is one second later).
    ticks = itertools.count(start=0.0, step=1.0)
    late = analyse_position(DRAWN_ENDING, node_budget=None, time_budget_s=0.5, clock=lambda: next(ticks))
    assert late.kind is EvalKind.HEURISTIC


def test_the_cpu_budget_bounds_the_whole_analysis_position_by_position() -> None:
    # A CPU clock one second later at each look: 2.5 s let the last two positions (the final one, and a win in
    # 1 for Yellow) be done, the other seven not. (Within its budget an analysis is the one without: above.)
    ticks = itertools.count(start=0.0, step=1.0)
    with pytest.raises(OverBudget, match=r"with 7 position\(s\) left"):
        analyse_game(WON, time_budget_s=None, cpu_budget_s=2.5, cpu_clock=lambda: next(ticks))
    # None to spend: not one position.
    with pytest.raises(OverBudget, match=r"with 4 position\(s\) left"):
        analyse_game(UNFINISHED, cpu_budget_s=0)


def test_the_command_line_prints_the_same_json() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "games.engine.analyse", WON],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        timeout=120,
    )
    assert json.loads(done.stdout) == analyse_game(WON).to_json()


def test_the_command_line_reports_a_bad_record_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["a1", "e5"]) == 2
    error = json.loads(capsys.readouterr().out)
    assert error == {"error": {"code": "bad_peg", "ply": 1, "message": '"e5" is not a peg.'}}


def test_the_analysis_imports_only_the_standard_library() -> None:
    probe = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); before = set(sys.modules); "
        "import games.engine.analyse; print(json.dumps(sorted(set(sys.modules) - before)))"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-c", probe, str(ROOT)], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = json.loads(done.stdout)
    assert "games.engine.analyse" in loaded and "games.engine.proof" in loaded
    assert [name for name in loaded if name.split(".")[0] not in {*sys.stdlib_module_names, "games"}] == []
