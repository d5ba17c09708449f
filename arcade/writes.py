"""A step's write, one statement on PostgreSQL, and the runs this process holds.

A step (a move, an undo, a continue, an end) updates its run's row to the run after it, guarded by the
run's ``steps`` (``WHERE id = %s AND steps = %s AND closed_at IS NULL``), and inserts the step's row: on
PostgreSQL both in one statement (a ``WITH`` whose ``UPDATE ... RETURNING`` feeds the ``INSERT``), so an
acknowledged step costs one round trip and is committed when it is answered; on SQLite two statements in
one transaction (no round trip: the file is the process's).

:class:`Held` keeps, per process, each run as its last step here left it (:data:`HELD`): a move on a run
held at the client's ``n`` reads nothing, deals its spawns and writes its one statement. When another
process has moved the run since, the guard matches no row and the caller takes the locked path (the row
read ``FOR UPDATE``), as it does for a run it does not hold.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime

from django.db import connection, transaction

from arcade.engine import RunState
from arcade.models import Run, Step
from arcade.state import STATE_COLUMNS, StepDone, spawns_json, state_values
from common.rows import Rows

_RUNS, _STEPS = Rows(Run), Rows(Step)
_SET = (*STATE_COLUMNS, "steps", "played_at")
_GUARD = ("id", "steps")
_STEP = ("run_id", "n", "op", "dir", "spawned", "gained")
HELD_RUNS = 10_000  # the runs a process keeps, the least recently played dropped first


@dataclass(frozen=True, slots=True)
class Held:
    """A run as this process's last step of it left it."""

    run_id: str
    player_id: str
    bot: bool
    best_before: int
    steps: int
    state: RunState


class HeldRuns:
    """The runs this process holds, by id (thread-safe: each entry is replaced whole)."""

    def __init__(self, size: int = HELD_RUNS) -> None:
        self.size = size
        self._runs: OrderedDict[str, Held] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, run_id: str) -> Held | None:
        with self._lock:
            return self._runs.get(run_id)

    def put(self, held: Held) -> None:
        with self._lock:
            self._runs[held.run_id] = held
            self._runs.move_to_end(held.run_id)
            while len(self._runs) > self.size:
                self._runs.popitem(last=False)

    def drop(self, run_id: str) -> None:
        with self._lock:
            self._runs.pop(run_id, None)

    def clear(self) -> None:
        with self._lock:
            self._runs.clear()


HELD = HeldRuns()


def _update_sql() -> str:
    runs = _RUNS
    return runs.statement("step update", lambda: (
        f"{runs.update_where_sql(_SET, _GUARD)} AND {runs.quoted('closed_at')} IS NULL "
        f"RETURNING {runs.quoted('id')}"))


def _one_statement_sql() -> str:
    runs, steps = _RUNS, _STEPS

    def build() -> str:
        columns = ", ".join(steps.quoted(name) for name in _STEP)  # each field's column is its attname
        values = ", ".join(["%s"] * (len(_STEP) - 1))
        return (f"WITH moved AS ({_update_sql()}) INSERT INTO {steps.quoted(steps.table)} ({columns}) "
                f"SELECT {runs.quoted('id')}, {values} FROM moved RETURNING {steps.quoted('n')}")
    return runs.statement("step", build)


def step_write(*, run_id: str, steps: int, after: RunState, step: StepDone, now: datetime) -> bool:
    """Write step ``steps`` of the run (``after``: the run after it) if the run is still at ``steps`` and open.

    Returns:
        Whether it was written (False: the run has moved on, or closed, and nothing was written).
    """
    runs = _RUNS
    values = runs.values(_SET, [*state_values(after), steps + 1, now])
    guard = [runs.prep("id", run_id), steps]
    row = _STEPS.values(_STEP, [run_id, steps, step.op, step.dir, spawns_json(step.spawned), step.gained])
    if connection.vendor == "postgresql":
        # The step's run_id is the UPDATE's RETURNING: the INSERT writes a row for each run updated (one or none).
        return bool(runs.execute_bound(_one_statement_sql(), [*values, *guard, *row[1:]]))
    with transaction.atomic():
        if not runs.execute(_update_sql(), [*values, *guard]):
            return False
        _STEPS.execute(_STEPS.insert_sql(_STEP), row)
    return True
