"""Runs: started, played a step at a time (move, undo, continue, end), closed and checked by replay.

Every spawn is dealt here, from ``secrets.SystemRandom()`` unless a test hands in its own source, when the
step that makes it is applied: nothing of a spawn exists before its move is committed. A step names the
run's ``steps`` the client has seen (``n``): a retry of the last step answers what it answered and applies
nothing; any other ``n`` is refused as ``stale`` with the run's state. A step on a run this process holds
at ``n`` is one statement (:mod:`arcade.writes`); otherwise the run's row is read ``FOR UPDATE`` first.

A run closes when it can change no more (ended, capped, stuck on ``classic``), when its player starts
another of its mode, or after :data:`IDLE` (24 hours) idle (``manage.py close_idle_runs``): its record is
replayed from the opening through the engine, and the replay's peak score is what ranks. A replay that does
not give the run the server computed is logged and the run is not ranked.
"""

from __future__ import annotations

import logging
import secrets
import uuid
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils.translation import gettext

from arcade.engine import (
    CLASSIC,
    ArcadeError,
    BadRecord,
    Mode,
    RandomSource,
    RunState,
    Spawn,
    Status,
    continue_run,
    end_run,
    mode_by_id,
    play,
    replay,
    start_run,
    undo,
)
from arcade.limits import runs_quota_take, steps_quota_take
from arcade.models import Run, Step
from arcade.selectors import no_run, run_key, run_shown
from arcade.shown import RunShown, run_json
from arcade.state import StepDone, record_of, spawns_json, spawns_of, state_of
from arcade.writes import HELD, Held, step_write
from common.errors import Refused
from common.translation import render
from players.accounts import GuestReplaced
from players.models import Player

log = logging.getLogger(__name__)

OPS = ("move", "undo", "continue", "end")
IDLE = timedelta(hours=24)  # a run no step touched this long is closed (replayed and ranked)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a step did, and the run after it."""

    run: RunShown
    moved: bool
    spawned: tuple[Spawn, ...] = ()
    gained: int = 0


def refusal(error: ArcadeError) -> Refused:
    """The engine's refusal as the API's (its code, its message in the active language)."""
    return Refused(error.code, render(error))


def _mode(mode_id: object) -> Mode:
    try:
        return mode_by_id(mode_id if isinstance(mode_id, str) else repr(mode_id))
    except ArcadeError as error:
        raise refusal(error) from None


def _shown(held: Held) -> RunShown:
    return RunShown(run_id=held.run_id, state=held.state, steps=held.steps, best_before=held.best_before,
                    bot=held.bot)


def _held(run: Run) -> Held:
    return Held(run_id=str(run.pk), player_id=str(run.player_id), bot=run.bot, best_before=run.best_before,
                steps=run.steps, state=state_of(run))


def best_of(*, player_id: uuid.UUID | str, mode_id: str) -> int:
    """The player's best in the mode: the highest checked peak of their closed runs (0 before any)."""
    best = Run.objects.filter(player_id=player_id, mode=mode_id, ranked_score__isnull=False).aggregate(
        best=Max("ranked_score"))["best"]
    return int(best or 0)


def run_start(*, player: Player, mode_id: object, bot: bool, now: datetime, address: str | None,
              rng: RandomSource | None = None) -> RunShown:
    """A new run of the mode, its opening dealt; the player's open run of the mode, if any, is closed first
    (and scored).

    Raises:
        Refused: ``bad_mode``; ``banned``; ``rate_limited``.
    """
    mode = _mode(mode_id)
    if player.is_banned:
        raise Refused("banned", gettext("This player is banned by a moderator."))
    runs_quota_take(player_id=str(player.pk), address=address, now=now)
    cap = settings.ARCADE_CLASSIC_MOVE_CAP if mode is CLASSIC else None
    state = start_run(mode=mode, rng=rng or secrets.SystemRandom(), move_cap=cap)
    for attempt in range(3):
        for old in Run.objects.filter(player=player, mode=mode.id, closed_at__isnull=True).values_list("pk", flat=True):
            run_close(run_id=str(old), now=now)
        best = best_of(player_id=player.pk, mode_id=mode.id)
        try:
            with transaction.atomic():
                run = Run.objects.create(
                    mode=mode.id, player=player, bot=bot, opening=spawns_json(_opening(state)), move_cap=state.move_cap,
                    board=list(state.board), peak_tile=state.peak_tile, best_before=best, started_at=now, played_at=now)
            break
        except IntegrityError:  # another start of the mode got in between: close it too
            if attempt == 2:
                raise
    HELD.put(_held(run))
    return run_shown(run, record=False)


def _opening(state: RunState) -> tuple[Spawn, ...]:
    return tuple(Spawn(cell=cell, value=value) for cell, value in enumerate(state.board) if value)


Apply = Callable[[RunState], tuple[RunState, StepDone | None]]


def _apply_of(op: str, direction: object, rng: RandomSource) -> Apply:
    if op == "move":
        def move(state: RunState) -> tuple[RunState, StepDone | None]:
            done = play(state, direction if isinstance(direction, str) else repr(direction), rng=rng)
            step = StepDone("move", state.mode.shape.direction(str(direction)).value, done.spawned, done.gained)
            return done.state, step if done.moved else None
        return move
    action = {"undo": undo, "continue": continue_run, "end": end_run}[op]
    return lambda state: (action(state), StepDone(op))


def run_step(*, run_id: object, player: Player | None, op: str, n: object, now: datetime, direction: object = None,
             rng: RandomSource | None = None) -> Outcome:
    """Apply one step of ``op`` (``move`` toward ``direction``, ``undo``, ``continue`` or ``end``) to the
    player's run, the client having seen ``n`` steps (None: whatever the run is at; a move needs it).

    Raises:
        Refused: ``no_run`` (none, or another's); ``bad_request`` (no ``n`` for a move, or not a count);
            ``stale`` (``n`` is not the run's steps: ``details["run"]`` is the run); ``rate_limited``;
            the engine's (``bad_dir``, ``not_playing``, ``no_undo``, ``undo_spent``, ``not_won``, ``run_ended``).
    """
    rid = run_key(run_id)
    if player is None:
        raise no_run()
    if (n is None and op == "move") or (n is not None and (not isinstance(n, int) or isinstance(n, bool) or n < 0)):
        raise Refused("bad_request", gettext('Send "n": the number of steps of the run you have seen.'))
    if player.is_banned:
        raise Refused("banned", gettext("This player is banned by a moderator."))
    steps_quota_take(run_id=rid, now=now)
    apply = _apply_of(op, direction, rng or secrets.SystemRandom())
    held = HELD.get(rid)
    if held is not None and held.player_id == str(player.pk) and (n is None or held.steps == n):
        outcome = _held_step(held, apply, now=now)
        if outcome is not None:
            return outcome
    return _locked_step(rid, player, op, direction, n, apply, now=now)


def _held_step(held: Held, apply: Apply, *, now: datetime) -> Outcome | None:
    """The step on the held copy: one statement, or none for a move that moved nothing; None when the
    copy is out of date (the locked path then answers, refusals included)."""
    try:
        after, step = apply(held.state)
    except ArcadeError:
        return None  # answered from the row: the copy may be behind
    if step is None:
        return Outcome(run=_shown(held), moved=False)
    if not step_write(run_id=held.run_id, steps=held.steps, after=after, step=step, now=now):
        HELD.drop(held.run_id)
        return None
    return _done(replace(held, steps=held.steps + 1, state=after), step, now=now)


def _done(held: Held, step: StepDone, *, now: datetime) -> Outcome:
    HELD.put(held)
    if held.state.is_final:
        run_close(run_id=held.run_id, now=now)
    return Outcome(run=_shown(held), moved=step.op == "move", spawned=step.spawned, gained=step.gained)


def _locked_step(rid: str, player: Player, op: str, direction: object, n: object, apply: Apply, *,
                 now: datetime) -> Outcome:
    with transaction.atomic():
        run = Run.objects.select_for_update().filter(pk=rid).first()
        if run is None or run.player_id != player.pk:
            raise no_run()
        held = _held(run)
        if n is not None and n != run.steps:
            return _retry(run, held, op, direction, n)
        if run.closed_at is not None:
            raise Refused("run_ended", gettext("This run is over: start a new one."))
        try:
            after, step = apply(held.state)
        except ArcadeError as error:
            raise refusal(error) from None
        if step is None:
            HELD.put(held)
            return Outcome(run=_shown(held), moved=False)
        written = step_write(run_id=rid, steps=run.steps, after=after, step=step, now=now)
        assert written, "the row is locked: nothing else can have moved it"
    return _done(replace(held, steps=held.steps + 1, state=after), step, now=now)


def _retry(run: Run, held: Held, op: str, direction: object, n: object) -> Outcome:
    """The answer to step ``n`` sent again: what it answered, if it is the run's last step; else ``stale``."""
    last = Step.objects.filter(run_id=run.pk, n=n).first() if n == run.steps - 1 else None
    if last is None or last.op != op or (op == "move" and last.dir != direction):
        raise Refused("stale", gettext("The run has moved on: it is at step %(now)d, not %(seen)s.")
                      % {"now": run.steps, "seen": n}, details={"run": run_json(run_shown(run, record=False))})
    return Outcome(run=_shown(held), moved=op == "move", spawned=spawns_of(last.spawned), gained=last.gained)


def run_close(*, run_id: str, now: datetime) -> bool:
    """Close the open run ``run_id``: ended first if it is still playing or won (an ``end`` step), its
    record replayed, and the replay's peak ranked when the replay gives the run as stored.

    Returns:
        Whether it closed it (False: closed already).
    """
    with transaction.atomic():
        run = Run.objects.select_for_update().filter(pk=run_id, closed_at__isnull=True).first()
        if run is None:
            return False
        state = state_of(run)
        if state.status in (Status.PLAYING, Status.WON):
            ended = end_run(state)
            step_write(run_id=run_id, steps=run.steps, after=ended, step=StepDone("end"), now=now)
            state, run.steps = ended, run.steps + 1
        steps = list(Step.objects.filter(run_id=run_id).order_by("n"))
        ranked = _checked(run, state, steps)
        Run.objects.filter(pk=run_id).update(closed_at=now, ranked_score=ranked)
    HELD.drop(run_id)
    log.info("arcade run %s closed: %s, peak %d, ranked %s", run_id, state.status.value, state.peak_score, ranked,
             extra={"player": run.player_id})
    return True


def _checked(run: Run, state: RunState, steps: list[Step]) -> int | None:
    """The replay's peak score when replaying the record gives ``state``; else None (logged)."""
    if [step.n for step in steps] != list(range(run.steps)):
        log.error("arcade run %s not ranked: its record has steps %d..%d, the run %d", run.pk,
                  steps[0].n if steps else -1, steps[-1].n if steps else -1, run.steps)
        return None
    try:
        replayed = replay(record_of(run, steps))
    except BadRecord as error:
        log.error("arcade run %s not ranked: its record does not replay: %s", run.pk, error.message)
        return None
    if replayed != state:
        log.error("arcade run %s not ranked: the replay gives score %d (peak %d), the server had %d (peak %d)",
                  run.pk, replayed.score, replayed.peak_score, state.score, state.peak_score)
        return None
    return replayed.peak_score


def runs_close_idle(*, now: datetime, idle: timedelta | None = None) -> list[str]:
    """Close the runs no step has touched for ``idle`` (:data:`IDLE`), and those that can change no
    more but were left open (a process that stopped between a run's last step and its close); a run that cannot
    be closed is logged and left, the others closed all the same."""
    idle = IDLE if idle is None else idle
    left = Run.objects.filter(closed_at__isnull=True).filter(
        Q(played_at__lte=now - idle) | Q(status=Status.ENDED.value) | Q(status=Status.OVER.value, slot__isnull=True))
    closed = []
    for run_id in (str(pk) for pk in left.values_list("pk", flat=True)):
        try:  # each alone: one run that cannot be closed leaves the others closed
            if run_close(run_id=run_id, now=now):
                closed.append(run_id)
        except Refused as refused:
            log.warning("arcade run %s not closed: %s", run_id, refused.code)
        except Exception:  # a row the engine cannot read: a fault to look into, the others go on
            log.exception("arcade run %s could not be closed", run_id)
    return closed


def runs_guest_replaced(replaced: GuestReplaced) -> None:
    """``players.accounts.GUEST_REPLACED``'s handler: the device's guest's open runs go on as the account's,
    where the account has none of the mode (else the guest's is closed and ranked as the guest's). The guest's
    closed runs stay the guest's, as its finished games do."""
    account = replaced.account
    for run in Run.objects.select_for_update().filter(player=replaced.guest, closed_at__isnull=True):
        if Run.objects.filter(player=account, mode=run.mode, closed_at__isnull=True).exists():
            run_close(run_id=str(run.pk), now=replaced.now)
            continue
        Run.objects.filter(pk=run.pk).update(player=account, best_before=max(
            run.best_before, best_of(player_id=account.pk, mode_id=run.mode)))
        HELD.drop(str(run.pk))
