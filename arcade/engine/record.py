"""A run's record (its opening tiles, then every move with its spawns, every undo, continue and end, in
order), its JSON form, and its replay: what the server ranks is what the replay computes.

The JSON form (docs/arcade.md; the shared test vectors use it)::

    {"mode": "cube3", "move_cap": 20000,
     "opening": [{"cell": 4, "value": 2}, {"cell": 20, "value": 2}],
     "steps": [{"op": "move", "dir": "left", "spawned": [{"cell": 7, "value": 4}]},
               {"op": "undo"}, {"op": "continue"}, {"op": "end"}]}

``move_cap`` may be left out (the mode's cap). A move that moved nothing is not a move: no record holds one.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Literal

from arcade.engine.errors import ArcadeError, BadRecord, MovedNothing, gettext_noop
from arcade.engine.geometry import Direction
from arcade.engine.modes import Mode, mode_by_id
from arcade.engine.run import RunState, continue_run, end_run, open_run, play_dealt, undo
from arcade.engine.spawn import Spawn


@dataclass(frozen=True, slots=True)
class MoveStep:
    """A move that changed the board, with the tiles the server dealt after it."""

    direction: Direction
    """Where the tiles slid."""
    spawned: tuple[Spawn, ...]
    """The new tiles, in the order they were placed."""


@dataclass(frozen=True, slots=True)
class ActionStep:
    """A step that is not a move."""

    op: Literal["undo", "continue", "end"]
    """``undo`` (cubes), ``continue`` (after a win) or ``end`` (the player ended the run)."""


Step = MoveStep | ActionStep


@dataclass(frozen=True, slots=True)
class Record:
    """Everything needed to replay a run."""

    mode: Mode
    """The run's mode."""
    opening: tuple[Spawn, ...]
    """The two opening tiles."""
    steps: tuple[Step, ...] = ()
    """Every move, undo, continue and end, in order."""
    move_cap: int | None = None
    """The run's move cap, or None for the mode's."""

    @classmethod
    def from_json(cls, data: object) -> Record:
        """Read a record's JSON form (parsed: dicts, lists, strings and ints).

        Raises:
            BadRecord: not a record (a missing or mistyped field, an unknown mode, op or direction).
        """
        try:
            fields = _mapping(data)
            mode = mode_by_id(_str(fields.get("mode")))
            cap = fields.get("move_cap")
            return cls(
                mode=mode,
                opening=_spawns(fields.get("opening")),
                steps=tuple(_step(step, mode) for step in _list(fields.get("steps", []))),
                move_cap=None if cap is None else _cap(cap),
            )
        except BadRecord:
            raise
        except ArcadeError as error:
            why = {"why": error.message}
            raise BadRecord(gettext_noop("This is not a run's record: %(why)s"), params=why) from error

    def to_json(self) -> dict[str, object]:
        """The record's JSON form (what :meth:`from_json` reads back)."""
        data: dict[str, object] = {"mode": self.mode.id}
        if self.move_cap is not None:
            data["move_cap"] = self.move_cap
        data["opening"] = [_spawn_json(spawn) for spawn in self.opening]
        data["steps"] = [
            {"op": "move", "dir": step.direction.value, "spawned": [_spawn_json(spawn) for spawn in step.spawned]}
            if isinstance(step, MoveStep) else {"op": step.op}
            for step in self.steps
        ]
        return data


def replay_states(record: Record) -> Iterator[RunState]:
    """The run after its opening, then after each step in turn.

    Raises:
        BadRecord: the opening or a step breaks a rule (``step``: its index; None for the opening);
            the error it broke is the ``__cause__``.
    """
    try:
        state = open_run(mode=record.mode, opening=record.opening, move_cap=record.move_cap)
    except ArcadeError as error:
        raise BadRecord(gettext_noop("The opening breaks a rule: %(why)s"), params={"why": error.message}) from error
    yield state
    for index, step in enumerate(record.steps):
        try:
            state = _apply(state, step)
        except ArcadeError as error:
            raise BadRecord(gettext_noop("Step %(step)d breaks a rule: %(why)s"),
                            params={"step": index, "why": error.message}, step=index) from error
        yield state


def replay(record: Record) -> RunState:
    """The run at the end of its record: its ``peak_score`` is the run's checked score.

    Raises:
        BadRecord: as :func:`replay_states`.
    """
    return deque(replay_states(record), maxlen=1)[0]


def _apply(state: RunState, step: Step) -> RunState:
    if isinstance(step, MoveStep):
        done = play_dealt(state, step.direction, spawns=step.spawned)
        if not done.moved:
            raise MovedNothing()
        return done.state
    if step.op == "undo":
        return undo(state)
    if step.op == "continue":
        return continue_run(state)
    return end_run(state)


def _spawn_json(spawn: Spawn) -> dict[str, int]:
    return {"cell": spawn.cell, "value": spawn.value}


def _step(data: object, mode: Mode) -> Step:
    fields = _mapping(data)
    op = fields.get("op")
    if op == "move":
        return MoveStep(direction=mode.shape.direction(_str(fields.get("dir"))), spawned=_spawns(fields.get("spawned")))
    if op == "undo" or op == "continue" or op == "end":
        return ActionStep(op=op)
    raise _malformed("op")


def _spawns(data: object) -> tuple[Spawn, ...]:
    spawns = []
    for item in _list(data):
        fields = _mapping(item)
        spawns.append(Spawn(cell=_int(fields.get("cell")), value=_int(fields.get("value"))))
    return tuple(spawns)


def _malformed(what: str) -> BadRecord:
    return BadRecord(gettext_noop("This is not a run's record: a bad %(what)s."), params={"what": what})


def _mapping(data: object) -> Mapping[str, object]:
    if not isinstance(data, Mapping):
        raise _malformed("object")
    return data


def _list(data: object) -> list[object]:
    if not isinstance(data, list):
        raise _malformed("list")
    return data


def _str(data: object) -> str:
    if not isinstance(data, str):
        raise _malformed("string")
    return data


def _cap(data: object) -> int:
    cap = _int(data)
    if cap < 1:
        raise _malformed("move cap")
    return cap


def _int(data: object) -> int:
    if not isinstance(data, int) or isinstance(data, bool):
        raise _malformed("number")
    return data
