"""``python -m games.engine --cpu`` and the match runner ``python -m games.engine.match``."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

from games.engine.cli import main as cli_main
from games.engine.match import main as match_main

ROOT = Path(__file__).resolve().parents[3]


def run_module(module: str, args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
        check=False,
    )


def test_cpu_option_adds_the_move_and_its_time_to_games_being_played() -> None:
    done = run_module(
        "games.engine", ["--cpu", "3", "--seed", "1", "--ms", "100"], "\na1 a3 b1 b3 c1 c3\na1 b1 a1 b1 a1 b1 a1\nx9\n"
    )
    assert done.returncode == 0, done.stderr
    empty, winning, finished, error = (json.loads(line) for line in done.stdout.splitlines())
    assert empty["cpu"] in empty["legal"] and isinstance(empty["cpu_ms"], int) and empty["cpu_ms"] >= 0
    assert winning["cpu"] == "d1"
    assert list(winning)[-2:] == ["cpu", "cpu_ms"]  # appended after the engine's own keys
    assert "cpu" not in finished and "cpu_ms" not in finished
    assert error["ok"] is False and "cpu" not in error


def test_cpu_output_is_reproducible_with_a_seed() -> None:
    lines = "\n".join(["", "b2", "b2 c3", "b2 c3 b3"]) + "\n"
    first = io.StringIO()
    again = io.StringIO()
    cli_main(["--cpu", "2", "--seed", "7"], stdin=io.StringIO(lines), stdout=first)
    cli_main(["--cpu", "2", "--seed", "7"], stdin=io.StringIO(lines), stdout=again)
    moves = [json.loads(line)["cpu"] for line in first.getvalue().splitlines()]
    assert moves == [json.loads(line)["cpu"] for line in again.getvalue().splitlines()]


def test_cpu_options_are_checked() -> None:
    assert run_module("games.engine", ["--cpu", "6"]).returncode == 2
    assert run_module("games.engine", ["--seed", "3"]).returncode == 2
    assert run_module("games.engine", ["--cpu", "3", "--ms", "0"]).returncode == 2
    assert "--cpu" in run_module("games.engine", ["--help"]).stdout


def test_match_runner_plays_two_games_and_prints_the_table(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    json_path = tmp_path / "games.json"
    status = match_main(
        ["--a", "3", "--b", "random", "--games", "2", "--seed", "5", "--json", str(json_path)], stdout=out, stderr=err
    )
    assert status == 0
    table = out.getvalue().splitlines()
    assert table[0] == "A = Medium (3, 120 ms)" and table[1] == "B = random"
    rows = {(cells[0], cells[1]): cells[2:] for cells in (line.split() for line in table[4:])}
    assert rows[("A", "all")][:4] == ["2", "2", "0", "0"]  # games, wins, draws, losses
    assert rows[("A", "red")][0] == rows[("A", "yellow")][0] == "1"  # colours alternate
    assert rows[("B", "all")][:4] == ["2", "0", "0", "2"]
    assert "2/2 games" in err.getvalue()
    games = json.loads(json_path.read_text())["games"]
    assert [game["a_colour"] for game in games] == ["red", "yellow"]


def test_match_runner_as_a_module() -> None:
    done = run_module("games.engine.match", ["--a", "2", "--b", "1", "--games", "2", "--seed", "1"])
    assert done.returncode == 0, done.stderr
    assert "Easy (2, 60 ms)" in done.stdout and "Beginner (1, 40 ms)" in done.stdout
    assert "[" in done.stderr and "2/2 games" in done.stderr
    assert run_module("games.engine.match", ["--a", "9", "--b", "1"]).returncode == 2
