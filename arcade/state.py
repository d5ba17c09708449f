"""A run's row and the engine's ``RunState``, each read from the other; its steps and the engine's record.

The row holds the run as the engine does (board, score, moves, played, status, continued, the target's
milestone, the undo slot, the peaks), so that a move reads the row (or a process's held copy of it) and
never replays the record; the record (the opening and the step rows) is replayed when the run closes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from arcade.engine import ActionStep, MoveStep, Record, RunState, Snapshot, Spawn, Status, mode_by_id
from arcade.models import Run, Step

# The columns a step writes to its run's row (besides ``steps`` and ``played_at``), in this order.
STATE_COLUMNS = ("board", "score", "moves", "played", "status", "continued", "reached_target", "slot", "peak",
                 "peak_tile")


def spawns_json(spawns: Iterable[Spawn]) -> list[list[int]]:
    """Spawns as the rows keep them: ``[[cell, value], ...]``."""
    return [[spawn.cell, spawn.value] for spawn in spawns]


def spawns_of(data: Sequence[Sequence[int]]) -> tuple[Spawn, ...]:
    """Spawns from the rows' ``[[cell, value], ...]``."""
    return tuple(Spawn(cell=int(cell), value=int(value)) for cell, value in data)


def state_of(run: Run) -> RunState:
    """The engine's state of ``run`` as its row holds it."""
    slot = run.slot
    snapshot = None if slot is None else Snapshot(
        board=tuple(slot["board"]), score=slot["score"], moves=slot["moves"], status=Status(slot["status"]),
        continued=slot["continued"])
    return RunState(
        mode=mode_by_id(run.mode), board=tuple(run.board), move_cap=run.move_cap, score=run.score, moves=run.moves,
        played=run.played, status=Status(run.status), continued=run.continued, reached_target=run.reached_target,
        slot=snapshot, peak_score=run.peak, peak_tile=run.peak_tile)


def state_values(state: RunState) -> list[Any]:  # Any: a column's value (a JSON list, an int, a bool)
    """``state``'s values of :data:`STATE_COLUMNS`, in order."""
    shot = state.slot
    slot = None if shot is None else {"board": list(shot.board), "score": shot.score, "moves": shot.moves,
                                      "status": shot.status.value, "continued": shot.continued}
    return [list(state.board), state.score, state.moves, state.played, state.status.value, state.continued,
            state.reached_target, slot, state.peak_score, state.peak_tile]


def state_put(run: Run, state: RunState) -> None:
    """Set ``run``'s columns to ``state`` (in memory)."""
    for column, value in zip(STATE_COLUMNS, state_values(state), strict=True):
        setattr(run, column, value)


@dataclass(frozen=True, slots=True)
class StepDone:
    """A step as it is written: its op, direction, spawns and the score its merges made."""

    op: str
    dir: str = ""
    spawned: tuple[Spawn, ...] = ()
    gained: int = 0


def record_of(run: Run, steps: Iterable[Step]) -> Record:
    """The engine's record of ``run``: its opening, then ``steps`` (its step rows, in order)."""
    mode = mode_by_id(run.mode)
    return Record(mode=mode, opening=spawns_of(run.opening), move_cap=run.move_cap, steps=tuple(
        MoveStep(direction=mode.shape.direction(step.dir), spawned=spawns_of(step.spawned)) if step.op == "move"
        else ActionStep(op=step.op)  # type: ignore[arg-type]  # the rows hold undo, continue or end
        for step in steps))
