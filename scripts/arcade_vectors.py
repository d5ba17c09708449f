"""Write the arcade's shared test vectors, ``arcade/engine/vectors.json``: the engine's tests
(tests/arcade/engine) and the page's rules' (frontend/tests/arcade-rules.test.js) both run every case in it,
so the server and the page cannot disagree on a slide, a score, "no move left" or a replayed run.

Two kinds of case, in each list: ``golden`` ones are written here by hand from ARCADE.md's sentences (their
``why``), with expected values worked out by hand, never by the engine; the
others are the engine's own results on seeded random boards and runs, so that any later change of the engine
or of the page's rules that alters a result is caught (tests/arcade/engine/test_arcade_vectors.py checks that
the file is what this script writes).

Run: ``.venv/bin/python scripts/arcade_vectors.py`` (writes the file), ``--check`` (exits 1 if it is stale).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arcade.engine import (
    MODES,
    ActionStep,
    Direction,
    Mode,
    MoveStep,
    Record,
    Status,
    continue_run,
    deal_opening,
    end_run,
    is_stuck,
    play,
    replay,
    slide,
    undo,
)

VECTORS = Path(__file__).resolve().parents[1] / "arcade" / "engine" / "vectors.json"
SEED = 2048
Case = dict[str, object]

# --- The golden cases: ARCADE.md's rules, each case with the sentence it checks ("why") and its expected
# values worked out by hand. Boards are written sparse, {cell: value}; cell indexes as docs/arcade.md says:
# x + 4*y on the 4x4 (y: the top row first), x + n*y + n*n*z on a cube of side n (y: front to back, z: bottom
# to top).

CELLS = {"classic": 16, "cube2": 8, "cube3": 27, "cube3-hard": 27}


def board(mode: str, tiles: dict[int, int]) -> list[int]:
    """The full board of ``mode`` holding ``tiles``."""
    return [tiles.get(cell, 0) for cell in range(CELLS[mode])]


def tiles(*cells_values: int) -> list[dict[str, int]]:
    """Spawns as the records write them, from ``cell, value, cell, value, ...``."""
    pairs = zip(cells_values[::2], cells_values[1::2], strict=True)
    return [{"cell": cell, "value": value} for cell, value in pairs]


def move(direction: str, *cells_values: int) -> Case:
    return {"op": "move", "dir": direction, "spawned": tiles(*cells_values)}


UNDO: Case = {"op": "undo"}
CONTINUE: Case = {"op": "continue"}
END: Case = {"op": "end"}

# Lines slid toward their first cell (the wall), 0 for an empty cell.
GOLDEN_LINES: list[Case] = [
    {"why": "4 4 4 slid toward its first cell gives 8 4 .", "line": [4, 4, 4], "after": [8, 4, 0], "gained": 8},
    {"why": "2 2 2 2 gives 4 4 . . (two merges, never one 8)", "line": [2, 2, 2, 2], "after": [4, 4, 0, 0],
     "gained": 8},
    {"why": "4 4 8 gives 8 8 . (no chain in one move)", "line": [4, 4, 8], "after": [8, 8, 0], "gained": 8},
    {"why": "2 . 2 4 slid toward the first cell gives 4 4 . .", "line": [2, 0, 2, 4], "after": [4, 4, 0, 0],
     "gained": 4},
    {"why": "one line holds at most floor(length/2) merges", "line": [2, 2, 2], "after": [4, 2, 0], "gained": 4},
    {"why": "two 2s add 4", "line": [2, 2, 0, 0], "after": [4, 0, 0, 0], "gained": 4},
    {"why": "two 512s add 1024", "line": [512, 512], "after": [1024, 0], "gained": 1024},
    {"why": "the tiles close up toward the wall, gaps removed", "line": [0, 4, 0, 2], "after": [4, 2, 0, 0],
     "gained": 0},
    {"why": "the tile after a merged pair starts afresh", "line": [4, 4, 2, 2], "after": [8, 4, 0, 0], "gained": 12},
    {"why": "the first two neighbouring equal tiles merge, walking from the wall", "line": [2, 4, 4, 2],
     "after": [2, 8, 2, 0], "gained": 8},
    {"why": "only equal neighbours merge", "line": [2, 4, 2, 4], "after": [2, 4, 2, 4], "gained": 0},
    {"why": "a tile merges with the next tile across a gap", "line": [2, 0, 0, 2], "after": [4, 0, 0, 0],
     "gained": 4},
]

def slid(why: str, mode: str, before: dict[int, int], direction: str, after: dict[int, int], gained: int = 0, *,
         moved: bool = True) -> Case:
    """A slide case: ``before`` slid toward ``direction`` gives ``after`` and scores ``gained``."""
    return {"why": why, "mode": mode, "board": board(mode, before), "dir": direction, "after": board(mode, after),
            "gained": gained, "moved": moved}


_SINGLE = "one tile shifting by one cell makes a full move"
_NOTHING = "a move that moves nothing is not a move (the test is: did any tile change cell)"
_ROW = {0: 2, 1: 4, 2: 8, 3: 16}
_COLUMN = {0: 2, 4: 2, 8: 2, 12: 2}
GOLDEN_SLIDES: list[Case] = [
    slid("4 4 4 slid the other way gives . 4 8", "cube3", {0: 4, 1: 4, 2: 4}, "right", {1: 4, 2: 8}, 8),
    slid("4 4 4 slid toward its first cell gives 8 4 .", "cube3", {0: 4, 1: 4, 2: 4}, "left", {0: 8, 1: 4}, 8),
    slid("the merged tile is placed nearest the wall (up: toward the top, z = 2)", "cube3", {4: 4, 13: 4, 22: 4},
         "up", {13: 4, 22: 8}, 8),
    slid("the merged tile is placed nearest the wall (down: toward z = 0)", "cube3", {4: 4, 13: 4, 22: 4}, "down",
         {4: 8, 13: 4}, 8),
    # The body centre (x, y, z) = (1, 1, 1) toward each of the six walls.
    *(slid(_SINGLE, "cube3", {13: 2}, direction, {cell: 2})
      for direction, cell in (("left", 12), ("right", 14), ("backward", 10), ("forward", 16), ("down", 4),
                              ("up", 22))),
    # (1, 1) on the square toward each of its four walls; up is toward the top row, y = 0.
    *(slid(_SINGLE, "classic", {5: 2}, direction, {cell: 2})
      for direction, cell in (("left", 4), ("right", 7), ("up", 1), ("down", 13))),
    *(slid(_NOTHING, "classic", _ROW, direction, _ROW, moved=False) for direction in ("left", "right", "up")),
    slid("a move slides every tile toward one wall", "classic", _ROW, "down", {12: 2, 13: 4, 14: 8, 15: 16}),
    slid("2 2 2 2 gives 4 4 . . (up, along a column of the square)", "classic", _COLUMN, "up", {0: 4, 4: 4}, 8),
    slid("2 2 2 2 gives 4 4 . . (down, along a column of the square)", "classic", _COLUMN, "down", {8: 4, 12: 4}, 8),
    slid("two 2s add 4 (down, along z on the 2x2x2)", "cube2", {0: 2, 4: 2}, "down", {0: 4}, 4),
    slid("two 2s add 4 (up, along z on the 2x2x2)", "cube2", {0: 2, 4: 2}, "up", {4: 4}, 4),
    slid("forward is toward the back (y = 1 on the 2x2x2)", "cube2", {0: 2, 4: 2}, "forward", {2: 2, 6: 2}),
    slid("right is toward the last x", "cube2", {0: 2, 4: 2}, "right", {1: 2, 5: 2}),
    *(slid(_NOTHING, "cube2", {0: 2, 4: 2}, direction, {0: 2, 4: 2}, moved=False)
      for direction in ("backward", "left")),
    slid("two 512s add 1024", "cube2", {0: 512, 1: 512}, "left", {0: 1024}, 1024),
]

_DISTINCT_16 = [2 ** (cell + 1) for cell in range(16)]  # no two tiles equal: no move
_DISTINCT_27 = [2 ** (cell + 1) for cell in range(27)]
_CHECKER_16 = [2 if (cell % 4 + cell // 4) % 2 == 0 else 4 for cell in range(16)]
GOLDEN_STUCK: list[Case] = [
    {"why": "every cell holds a tile and no two equal tiles are neighbours: stuck", "mode": "classic",
     "board": _CHECKER_16, "stuck": True},
    {"why": "no two equal tiles are neighbours along any axis: stuck", "mode": "classic", "board": _DISTINCT_16,
     "stuck": True},
    {"why": "a full board with one equal neighbouring pair anywhere is still playable", "mode": "classic",
     "board": [*_DISTINCT_16[:15], _DISTINCT_16[14]], "stuck": False},
    {"why": "stuck needs every cell to hold a tile", "mode": "classic",
     "board": [*_DISTINCT_16[:5], 0, *_DISTINCT_16[6:]], "stuck": False},
    {"why": "equal tiles on a diagonal are not neighbours: stuck", "mode": "cube2", "board": [2, 4, 4, 2, 4, 2, 2, 4],
     "stuck": True},
    {"why": "no two equal tiles are neighbours along any axis: stuck", "mode": "cube3", "board": _DISTINCT_27,
     "stuck": True},
    {"why": "one equal pair along z only (cells 0 and 9) is still playable", "mode": "cube3",
     "board": [*_DISTINCT_27[:9], 2, *_DISTINCT_27[10:]], "stuck": False},
]

_WIN_AND_STUCK = {0: 128, 1: 128, 2: 4, 3: 8, 4: 16, 5: 32, 6: 64, 7: 2}
_WON_STUCK_AFTER = {0: 256, 1: 2, 2: 4, 3: 8, 4: 16, 5: 32, 6: 64, 7: 2}
_CLASSIC_2048_STUCK = {0: 1024, 1: 1024, 2: 4, 3: 8, 4: 16, 5: 32, 6: 64, 7: 128, 8: 32, 9: 16, 10: 128, 11: 64,
                       12: 16, 13: 32, 14: 64, 15: 128}
# 16 and 32 in a 3D checkerboard (no equal neighbours), but 2 2 8 on the line of cells 0, 1, 2.
_CHECKER_27 = {cell: 32 if (cell % 3 + cell // 3 % 3 + cell // 9) % 2 else 16 for cell in range(27)}
_ONE_EMPTY_AFTER = {**_CHECKER_27, 0: 2, 1: 2, 2: 8}
# Moves from a given position (the steps as a record writes them, but a move that moves nothing is played
# and changes nothing); "expect" is the run after the last step, or the first step's refusal.
GOLDEN_MOVES: list[Case] = [
    {"why": "the target is checked before stuck: a move that makes it and leaves no move is a win",
     "mode": "cube2", "at": {"board": board("cube2", _WIN_AND_STUCK), "score": 1000}, "steps": [move("left", 1, 2)],
     "expect": {"board": board("cube2", _WON_STUCK_AFTER), "score": 1256, "peak_score": 1256, "moves": 1,
                "status": "won", "reached_target": True, "can_undo": True}},
    {"why": "continuing from a position with no move ends the run at once", "mode": "cube2",
     "at": {"board": board("cube2", _WIN_AND_STUCK), "score": 1000}, "steps": [move("left", 1, 2), CONTINUE],
     "expect": {"board": board("cube2", _WON_STUCK_AFTER), "score": 1256, "status": "over", "can_undo": True}},
    {"why": "an undo after over restores the position and its status; the best never goes down",
     "mode": "cube2", "at": {"board": board("cube2", _WIN_AND_STUCK), "score": 1000},
     "steps": [move("left", 1, 2), CONTINUE, UNDO],
     "expect": {"board": board("cube2", _WIN_AND_STUCK), "score": 1000, "peak_score": 1256, "moves": 0,
                "status": "playing", "reached_target": True, "can_undo": False}},
    {"why": "a won run is waiting: a move needs a continue first", "mode": "cube2",
     "at": {"board": board("cube2", _WIN_AND_STUCK)}, "steps": [move("left", 1, 2), move("right")],
     "expect": {"error": "not_playing", "step": 1}},
    {"why": "on classic 2048 is a milestone: play goes on", "mode": "classic",
     "at": {"board": board("classic", {0: 1024, 1: 1024}), "score": 5000}, "steps": [move("left", 15, 2)],
     "expect": {"board": board("classic", {0: 2048, 15: 2}), "score": 7048, "status": "playing",
                "reached_target": True, "can_undo": False}},
    {"why": "on classic a move that makes 2048 and leaves no move ends the run (over), the milestone kept",
     "mode": "classic", "at": {"board": board("classic", _CLASSIC_2048_STUCK)}, "steps": [move("left", 3, 2)],
     "expect": {"board": board("classic", {**_CLASSIC_2048_STUCK, 0: 2048, 1: 4, 2: 8, 3: 2}), "score": 2048,
                "status": "over", "reached_target": True, "can_undo": False}},
    {"why": "Hard: two new tiles after a move, the second among the cells still empty after the first",
     "mode": "cube3-hard", "at": {"board": board("cube3-hard", {13: 2})}, "steps": [move("left", 0, 2, 26, 4)],
     "expect": {"board": board("cube3-hard", {12: 2, 0: 2, 26: 4}), "score": 0, "moves": 1, "status": "playing"}},
    {"why": "Hard: the second tile goes on a cell still empty after the first", "mode": "cube3-hard",
     "at": {"board": board("cube3-hard", {13: 2})}, "steps": [move("left", 0, 2, 0, 4)],
     "expect": {"error": "bad_spawn", "step": 0}},
    {"why": "Hard spawns two tiles a move", "mode": "cube3-hard", "at": {"board": board("cube3-hard", {13: 2})},
     "steps": [move("left", 0, 2)], "expect": {"error": "bad_spawn", "step": 0}},
    {"why": "Hard with one empty cell after the slide: one new tile (the project's reading)", "mode": "cube3-hard",
     "at": {"board": board("cube3-hard", _ONE_EMPTY_AFTER)}, "steps": [move("left", 2, 2)],
     "expect": {"board": board("cube3-hard", {**_ONE_EMPTY_AFTER, 0: 4, 1: 8, 2: 2}), "score": 4, "status": "over",
                "can_undo": True}},
    {"why": "a move that moves nothing: no spawn, no move counted, the undo slot left as it was", "mode": "cube2",
     "at": {"board": board("cube2", {0: 2})}, "steps": [move("right", 0, 2), move("backward")],
     "expect": {"board": board("cube2", {0: 2, 1: 2}), "score": 0, "moves": 1, "can_undo": True}},
    {"why": "undo restores the position from before the last move that changed the board", "mode": "cube2",
     "at": {"board": board("cube2", {0: 2})}, "steps": [move("right", 0, 2), move("backward"), UNDO],
     "expect": {"board": board("cube2", {0: 2}), "score": 0, "moves": 0, "can_undo": False}},
    {"why": "two undos in a row are impossible", "mode": "cube3", "at": {"board": board("cube3", {13: 2})},
     "steps": [move("up", 0, 2), UNDO, UNDO], "expect": {"error": "undo_spent", "step": 2}},
    {"why": "classic has no undo", "mode": "classic", "at": {"board": board("classic", {5: 2})},
     "steps": [move("up", 0, 2), UNDO], "expect": {"error": "no_undo", "step": 1}},
    {"why": "only a won run is continued", "mode": "cube3", "at": {"board": board("cube3", {13: 2})},
     "steps": [CONTINUE], "expect": {"error": "not_won", "step": 0}},
    {"why": "an ended run takes no move", "mode": "cube3", "at": {"board": board("cube3", {13: 2}), "score": 8},
     "steps": [END, move("up", 0, 2)], "expect": {"error": "not_playing", "step": 1}},
    {"why": "an ended run takes no undo", "mode": "cube3", "at": {"board": board("cube3", {13: 2})},
     "steps": [move("up", 0, 2), END, UNDO], "expect": {"error": "run_ended", "step": 2}},
    {"why": "the player may end a run at any time and keep its score", "mode": "cube3",
     "at": {"board": board("cube3", {13: 2}), "score": 8}, "steps": [END],
     "expect": {"score": 8, "peak_score": 8, "status": "ended", "can_undo": False}},
]

_EIGHT_FROM_TWOS = {"mode": "classic", "opening": tiles(0, 2, 1, 2),
                    "steps": [move("left", 2, 2), move("left", 3, 2), move("left", 15, 4), move("left", 1, 2)]}
_CUBE2_UNDO = {"mode": "cube2", "opening": tiles(0, 2, 1, 2), "steps": [move("left", 7, 2), UNDO]}
# Whole runs from their opening tiles: "expect" is the replay's end, or the step it refuses (null: the opening).
GOLDEN_RECORDS: list[Case] = [
    {"why": "building a tile of 2^k from 2s alone scores (k - 1) * 2^k: an 8 scores 16", "record": _EIGHT_FROM_TWOS,
     "expect": {"board": board("classic", {0: 8, 1: 2, 12: 4}), "score": 16, "peak_score": 16, "peak_tile": 8,
                "moves": 4, "played": 4, "status": "playing", "can_undo": False, "reached_target": False}},
    {"why": "the cap: a run stops after its move cap (20,000 on classic; 4 in this record)",
     "record": {**_EIGHT_FROM_TWOS, "move_cap": 4},
     "expect": {"score": 16, "peak_score": 16, "moves": 4, "status": "ended", "can_undo": False}},
    {"why": "the cap: no move after it", "record": {**_EIGHT_FROM_TWOS, "move_cap": 3},
     "expect": {"error": "not_playing", "step": 3}},
    {"why": "the best score never goes down: an undo of the move that set it leaves it where it is",
     "record": _CUBE2_UNDO,
     "expect": {"board": board("cube2", {0: 2, 1: 2}), "score": 0, "peak_score": 4, "peak_tile": 4, "moves": 0,
                "played": 1, "status": "playing", "can_undo": False}},
    {"why": "the undone move's spawn goes with it; playing the same move again draws a fresh spawn",
     "record": {**_CUBE2_UNDO, "steps": [*_CUBE2_UNDO["steps"], move("left", 6, 4)]},
     "expect": {"board": board("cube2", {0: 4, 6: 4}), "score": 4, "peak_score": 4, "moves": 1, "played": 2,
                "can_undo": True}},
    {"why": "two undos in a row are impossible", "record": {**_CUBE2_UNDO, "steps": [*_CUBE2_UNDO["steps"], UNDO]},
     "expect": {"error": "undo_spent", "step": 2}},
    {"why": "a move that moves nothing is not a move: no record holds one",
     "record": {"mode": "classic", "opening": tiles(0, 2, 1, 4), "steps": [move("left")]},
     "expect": {"error": "moved_nothing", "step": 0}},
    {"why": "Hard's opening is Normal's two tiles; its doubled spawn starts with the first move",
     "record": {"mode": "cube3-hard", "opening": tiles(0, 2, 26, 2), "steps": [move("left", 1, 2, 2, 4)]},
     "expect": {"board": board("cube3-hard", {0: 2, 1: 2, 2: 4, 24: 2}), "score": 0, "moves": 1,
                "status": "playing"}},
    {"why": "a run opens with two tiles", "record": {"mode": "cube3-hard", "opening": tiles(0, 2, 1, 2, 2, 2)},
     "expect": {"error": "bad_spawn", "step": None}},
]


# --- The generated cases: the engine's results on seeded random boards and runs.


def mode_json(mode: Mode) -> Case:
    return {"id": mode.id, "shape": list(mode.shape.extent), "four_rate": mode.four_rate, "spawns": mode.spawns,
            "target": mode.target, "target_wins": mode.target_wins, "undo": mode.undo, "move_cap": mode.move_cap}


def random_board(mode: Mode, rng: random.Random, *, fill: float, top: int) -> list[int]:
    """A board with about ``fill`` of its cells holding tiles up to 2**top, small tiles likelier (so that
    equal neighbours, hence merges, are common)."""
    return [0 if rng.random() > fill else 2 ** min(rng.randint(1, top), rng.randint(1, top))
            for _ in range(mode.shape.cells)]


def slide_cases(rng: random.Random) -> list[Case]:
    cases: list[Case] = []
    for mode in MODES.values():
        if mode.id == "cube3-hard":  # the same board and slide as cube3
            continue
        for fill in (0.3, 0.6, 0.9, 1.0):
            for _ in range(4):
                board = random_board(mode, rng, fill=fill, top=4)
                for direction in mode.shape.directions:
                    done = slide(tuple(board), shape=mode.shape, direction=direction)
                    cases.append({"mode": mode.id, "board": board, "dir": direction.value, "after": list(done.board),
                                  "gained": done.gained, "moved": done.moved, "merged": list(done.merged)})
    return cases


def stuck_cases(rng: random.Random) -> list[Case]:
    cases: list[Case] = []
    for mode in (MODES["classic"], MODES["cube2"], MODES["cube3"]):
        for fill in (0.95, 1.0, 1.0, 1.0, 1.0, 1.0):
            board = random_board(mode, rng, fill=fill, top=12)
            cases.append({"mode": mode.id, "board": board, "stuck": is_stuck(tuple(board), shape=mode.shape)})
    return cases


def random_record(mode: Mode, rng: random.Random, *, steps: int, undos: float) -> Record:
    """A run played at random (undoing now and then on the cubes) for up to ``steps`` steps."""
    state_rng = random.Random(rng.getrandbits(32))
    opening = deal_opening(mode=mode, rng=state_rng)
    record = Record(mode=mode, opening=opening)
    state = replay(record)
    taken: list[MoveStep | ActionStep] = []
    while len(taken) < steps and state.status is not Status.ENDED:
        step: MoveStep | ActionStep
        if state.status is Status.WON:
            step, state = ActionStep(op="continue"), continue_run(state)
        elif state.can_undo and (state.status is Status.OVER or rng.random() < undos):
            step, state = ActionStep(op="undo"), undo(state)
        elif state.status is Status.OVER:
            step, state = ActionStep(op="end"), end_run(state)
        else:
            direction: Direction = rng.choice(mode.shape.directions)
            done = play(state, direction, rng=state_rng)
            if not done.moved:
                continue
            step, state = MoveStep(direction=direction, spawned=done.spawned), done.state
        taken.append(step)
    return Record(mode=mode, opening=opening, steps=tuple(taken))


def record_case(record: Record) -> Case:
    state = replay(record)
    return {"record": record.to_json(), "expect": {
        "board": list(state.board), "score": state.score, "peak_score": state.peak_score, "peak_tile": state.peak_tile,
        "moves": state.moves, "played": state.played, "status": state.status.value, "can_undo": state.can_undo,
        "reached_target": state.reached_target,
    }}


def record_cases(rng: random.Random) -> list[Case]:
    cases = []
    for mode in MODES.values():
        cases.append(record_case(random_record(mode, rng, steps=60, undos=0.15)))
        cases.append(record_case(random_record(mode, rng, steps=250, undos=0.05)))
    return cases


def build() -> dict[str, object]:
    """The vectors: the golden cases as written, then the generated ones (the same on every run)."""
    rng = random.Random(SEED)
    return {
        "about": "Shared test vectors of the arcade's rules (docs/arcade.md), written by scripts/arcade_vectors.py:"
                 " a case with a 'why' is ARCADE.md's, checked by hand; the others are the engine's own results.",
        "modes": [mode_json(mode) for mode in MODES.values()],
        "lines": GOLDEN_LINES,
        "slides": [*GOLDEN_SLIDES, *slide_cases(rng)],
        "stuck": [*GOLDEN_STUCK, *stuck_cases(rng)],
        "moves": GOLDEN_MOVES,
        "records": [*GOLDEN_RECORDS, *record_cases(rng)],
    }


def render(vectors: dict[str, object]) -> str:
    """One case a line, so that a diff of the file reads case by case."""
    parts = []
    for key, value in vectors.items():
        if isinstance(value, list):
            items = ",\n".join("    " + json.dumps(item, separators=(",", ":")) for item in value)
            parts.append(f'  "{key}": [\n{items}\n  ]')
        else:
            parts.append(f"  {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is not what this script writes")
    args = parser.parse_args()
    text = render(build())
    if args.check:
        current = VECTORS.read_text() if VECTORS.exists() else ""
        print("up to date" if current == text else f"{VECTORS} is stale: run scripts/arcade_vectors.py")
        return 0 if current == text else 1
    VECTORS.write_text(text)
    print(f"wrote {VECTORS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
