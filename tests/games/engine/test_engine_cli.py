"""``python -m games.engine`` run as a subprocess: one JSON object per input line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
ALL_PEGS = [letter + digit for letter in "abcd" for digit in "1234"]


def run_cli(stdin: str) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "games.engine"],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=30,
        check=True,
    )
    return done.stdout.splitlines()


def test_playing_position_exact_line() -> None:
    (line,) = run_cli("a1 b1 a1\n")
    assert line == (
        '{"record": "a1 b1 a1", "ok": true, "ply": 3, "status": "playing", "to_move": "yellow", '
        '"winner": null, "line": null, "legal": ' + json.dumps(ALL_PEGS) + ', "threats": {"red": [], "yellow": []}}'
    )


def test_empty_line_is_the_empty_board_and_whitespace_is_normalised() -> None:
    empty, spaced = run_cli("\n   a1 \t  b2  \n")
    assert json.loads(empty) == {
        "record": "",
        "ok": True,
        "ply": 0,
        "status": "playing",
        "to_move": "red",
        "winner": None,
        "line": None,
        "legal": ALL_PEGS,
        "threats": {"red": [], "yellow": []},
    }
    assert json.loads(spaced)["record"] == "a1 b2"
    assert json.loads(spaced)["ply"] == 2


def test_won_game_and_threats() -> None:
    won, threats = run_cli("a1 b1 a1 b1 a1 b1 a1\na2 a1 a1 b1 b1 c1 c1\n")
    assert json.loads(won) == {
        "record": "a1 b1 a1 b1 a1 b1 a1",
        "ok": True,
        "ply": 7,
        "status": "won",
        "to_move": None,
        "winner": "red",
        "line": [{"peg": "a1", "level": level} for level in (1, 2, 3, 4)],
        "legal": [],
        "threats": {"red": [], "yellow": [{"peg": "b1", "level": 4, "playable": True}]},
    }
    assert json.loads(threats)["threats"] == {
        "red": [{"peg": "d1", "level": 2, "playable": False}],
        "yellow": [{"peg": "d1", "level": 1, "playable": True}],
    }


def test_drawn_game() -> None:
    from tests.records import DRAWN_RECORD

    (line,) = run_cli(DRAWN_RECORD + "\n")
    payload = json.loads(line)
    assert (payload["status"], payload["ply"], payload["winner"], payload["to_move"]) == ("drawn", 64, None, None)
    assert payload["legal"] == [] and payload["line"] is None


def test_rule_errors() -> None:
    lines = run_cli("a1 x9 b2\nb3 b3 b3 b3 b3\na1 b1 a1 b1 a1 b1 a1 c1\n")
    assert [json.loads(line) for line in lines] == [
        {"record": "a1 x9 b2", "ok": False, "error": {"code": "bad_peg", "ply": 1, "message": '"x9" is not a peg.'}},
        {
            "record": "b3 b3 b3 b3 b3",
            "ok": False,
            "error": {"code": "peg_full", "ply": 4, "message": "Peg b3 is full: it already holds 4 beads."},
        },
        {
            "record": "a1 b1 a1 b1 a1 b1 a1 c1",
            "ok": False,
            "error": {"code": "game_over", "ply": 7, "message": "The game is over: red won."},
        },
    ]
    assert lines[0] == (
        '{"record": "a1 x9 b2", "ok": false, '
        '"error": {"code": "bad_peg", "ply": 1, "message": "\\"x9\\" is not a peg."}}'
    )


def test_each_answer_is_flushed_before_the_next_line_is_read() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with subprocess.Popen(
        [sys.executable, "-m", "games.engine"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    ) as process:
        assert process.stdin is not None and process.stdout is not None
        for record, ply in (("c3", 1), ("c3 c3", 2)):
            process.stdin.write(record + "\n")
            process.stdin.flush()
            assert json.loads(process.stdout.readline())["ply"] == ply
        process.stdin.close()
        assert process.wait(timeout=30) == 0


def test_help_mentions_stdin() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "games.engine", "--help"], capture_output=True, text=True, cwd=ROOT, env=env, check=True
    )
    assert "stdin" in done.stdout
