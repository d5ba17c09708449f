"""Puzzles from the site's own games: a stored analysis's proved missed wins become puzzles (through the hook
the puzzles register into the games layer), linked from the game."""

from __future__ import annotations

import pytest
from django.test import Client

from games.analyses import ANALYSIS_STORED, AnalysisStored, analysis_store
from games.models import AnalysisStatus, GameAnalysis
from puzzles.models import Puzzle, PuzzleSource
from puzzles.services import puzzles_from_analysis
from tests.games.analysiskit import T0, two_player_game
from tests.puzzles.puzzlekit import pool_puzzle

pytestmark = pytest.mark.django_db


def fake_analysis(record: str, marks: dict[int, tuple[str, str, int | None]]) -> dict:
    """An analysis JSON of ``record`` with ``marks[ply] = (mark, eval kind, plies)``; other plies unmarked."""
    pegs = record.split()
    plies = []
    for ply in range(len(pegs) + 1):
        mark, kind, length = marks.get(ply, (None, "heuristic", None))
        plies.append({"ply": ply, "to_move": "red" if ply % 2 == 0 else "yellow",
                      "eval": {"kind": kind, "plies": length, "move": None, "score": None, "depth": 5, "nodes": 1},
                      "played": pegs[ply] if ply < len(pegs) else None, "mark": mark})
    return {"version": 1, "plies": plies, "moments": []}


def test_the_hook_is_registered_at_start_up():
    assert puzzles_from_analysis in ANALYSIS_STORED.handlers


def test_a_stored_analysis_turns_its_missed_wins_into_puzzles_once(django_capture_on_commit_callbacks):
    source = pool_puzzle(5)
    pegs = source.record.split()
    _, _, _, game = two_player_game("a1 b1")
    GameAnalysis.objects.create(game=game, status=AnalysisStatus.RUNNING, version=1, queued_at=T0)
    ply = len(pegs)
    record = " ".join([*pegs, "a1"])  # the move played there does not matter to the puzzle
    marks = {ply: ("missed_win", "forced_win", 5), 1: ("missed_win", "forced_win", 1), 2: ("blunder", "forced_loss", 4)}
    before = Puzzle.objects.count()
    with django_capture_on_commit_callbacks(execute=True):  # the hook runs once the analysis is committed
        assert analysis_store(game_id=str(game.id), result=fake_analysis(record, marks), now=T0)
    # The position is already in the pool (a self-play puzzle): it is linked, not added again.
    assert Puzzle.objects.count() == before
    assert list(PuzzleSource.objects.values_list("puzzle_id", "ply")) == [(source.id, ply)]
    listed = Client().get(f"/api/puzzles?game={game.id}").json()
    assert listed == {"puzzles": [{"ply": ply, "id": source.id, "plies": 5}]}
    puzzles_from_analysis(AnalysisStored(game_id=str(game.id), result=fake_analysis(record, marks), now=T0))
    assert PuzzleSource.objects.count() == 1
    assert Client().get("/api/puzzles?game=not-a-uuid").json() == {"puzzles": []}


def test_a_missed_win_on_a_symmetric_board_is_the_same_puzzle():
    from games.engine import Position, Symmetry

    source = pool_puzzle(7)
    mirrored = Position.from_record(source.record).transformed(Symmetry.ROTATE_90).record()
    _, _, _, game = two_player_game("a1 b1")
    pegs = mirrored.split()
    puzzles_from_analysis(AnalysisStored(game_id=str(game.id), now=T0, result=fake_analysis(
        " ".join([*pegs, "a1"]), {len(pegs): ("missed_win", "forced_win", 7)})))
    assert PuzzleSource.objects.get().puzzle_id == source.id


def test_a_real_analysis_of_a_game_that_missed_a_win_links_that_puzzle(django_capture_on_commit_callbacks):
    from games.engine.analyse import analyse_game

    # Red to move after the first 9 moves wins in 3 (a puzzle of the pool); Red's a1 lets it go.
    record = "c4 a3 a1 d4 c1 d1 c2 c3 d4 a1"
    _, _, _, game = two_player_game(record)
    GameAnalysis.objects.create(game=game, status=AnalysisStatus.RUNNING, version=1, queued_at=T0)
    result = analyse_game(record, node_budget=20_000, time_budget_s=10).to_json()
    assert result["plies"][9]["mark"] == "missed_win"
    with django_capture_on_commit_callbacks(execute=True):
        analysis_store(game_id=str(game.id), result=result, now=T0)
    source = PuzzleSource.objects.get(game=game)
    assert (source.ply, source.puzzle.plies, source.puzzle.record) == (9, 3, "c4 a3 a1 d4 c1 d1 c2 c3 d4")
