"""The rules of 2048 and 3D 2048 (docs/arcade.md). Standard library only.

One engine serves every board shape: a board is a flat tuple of cells (:mod:`.board`), a :class:`Mode`
names its :class:`Shape`, its spawn rates and its rules (:mod:`.modes`). The modules, bottom up:

* :mod:`.errors`: every refusal, each a ``ValueError`` with a stable ``code``;
* :mod:`.geometry`: shapes, directions and the lines a move resolves;
* :mod:`.board`: checking a board, its empty cells, "no move left";
* :mod:`.slide`: the slide and merge of a move, its score, "moved nothing";
* :mod:`.modes`: the four modes by id;
* :mod:`.spawn`: new tiles, dealt from a randomness source the caller passes in;
* :mod:`.run`: a run's state and what changes it (move, undo, continue, end);
* :mod:`.record`: a run's record, its JSON form and its replay (the checked score).
"""

from arcade.engine.board import Board, board_from, empty_cells, has_move, is_stuck, is_tile, top_tile
from arcade.engine.errors import (
    ArcadeError,
    BadBoard,
    BadDirection,
    BadMode,
    BadRecord,
    BadSpawn,
    IllegalMove,
    MovedNothing,
    NotPlaying,
    NotWon,
    NoUndo,
    RunEnded,
    UndoSpent,
)
from arcade.engine.geometry import CellKind, Direction, Line, Shape
from arcade.engine.modes import CLASSIC, CUBE2, CUBE3, CUBE3_HARD, MODES, MOVE_CAP, Mode, cube_mode, mode_by_id
from arcade.engine.record import ActionStep, MoveStep, Record, Step, replay, replay_states
from arcade.engine.run import (
    MoveResult,
    RunState,
    Snapshot,
    Status,
    continue_run,
    end_run,
    open_run,
    play,
    play_dealt,
    run_at,
    start_run,
    undo,
)
from arcade.engine.slide import LineSlide, Slide, slide, slide_line
from arcade.engine.spawn import (
    OPENING_TILES,
    RandomSource,
    Spawn,
    deal_after,
    deal_opening,
    deal_spawns,
    place_spawns,
    spawn_count,
)

__all__ = [
    "CLASSIC", "CUBE2", "CUBE3", "CUBE3_HARD", "MODES", "MOVE_CAP", "OPENING_TILES",
    "ActionStep", "ArcadeError", "BadBoard", "BadDirection", "BadMode", "BadRecord", "BadSpawn", "Board",
    "CellKind", "Direction", "IllegalMove", "Line", "LineSlide", "Mode", "MoveResult", "MoveStep", "MovedNothing",
    "NoUndo", "NotPlaying", "NotWon", "RandomSource", "Record", "RunEnded", "RunState", "Shape", "Slide", "Snapshot",
    "Spawn", "Status", "Step", "UndoSpent",
    "board_from", "continue_run", "cube_mode", "deal_after", "deal_opening", "deal_spawns", "empty_cells",
    "end_run", "has_move", "is_stuck", "is_tile", "mode_by_id", "open_run", "place_spawns", "play", "play_dealt",
    "replay", "replay_states", "run_at", "slide", "slide_line", "spawn_count", "start_run", "top_tile", "undo",
]
