"""The one hook mechanism (``common.hooks``): when a hook's handlers run, what becomes of their errors, and
registering once; then the same on the real database, through the hooks the apps define."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

import pytest
from django.db import transaction

from common.hooks import Hook, OnError, Registry, Runs
from players import services as players
from players.models import Player

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class Happened:
    n: int


class Deferred:
    """A hand-made ``defer``: keeps what it is given until ``commit`` runs it or ``rollback`` drops it."""

    def __init__(self) -> None:
        self.waiting: list[Callable[[], None]] = []

    def __call__(self, run: Callable[[], None]) -> None:
        self.waiting.append(run)

    def commit(self) -> None:
        waiting, self.waiting = self.waiting, []
        for run in waiting:
            run()

    def rollback(self) -> None:
        self.waiting = []


def inside() -> Hook[Happened]:
    return Hook("happened", runs=Runs.INSIDE_TRANSACTION, on_error=OnError.PROPAGATE)


def fails(event: Happened) -> None:
    raise RuntimeError(f"handler failed on {event.n}")


# --- without a database ----------------------------------------------------------------------------------
def test_registering_a_handler_twice_runs_it_once():
    hook, seen = inside(), []
    handler = seen.append
    hook.register(handler)
    hook.register(handler)
    hook.emit(Happened(1))
    assert seen == [Happened(1)] and len(hook.handlers) == 1


def test_handlers_run_in_the_order_registered():
    hook, seen = inside(), []
    hook.register(lambda event: seen.append(("first", event.n)))
    hook.register(lambda event: seen.append(("second", event.n)))
    hook.emit(Happened(2))
    assert seen == [("first", 2), ("second", 2)]


def test_inside_the_transaction_an_error_reaches_the_emitter_and_stops_the_later_handlers():
    hook, seen = inside(), []
    hook.register(fails)
    hook.register(seen.append)
    with pytest.raises(RuntimeError, match="handler failed on 3"):
        hook.emit(Happened(3))
    assert seen == []


def test_after_commit_the_handlers_wait_for_the_commit_and_a_rollback_drops_them():
    deferred, seen = Deferred(), []
    hook = Hook("happened", runs=Runs.AFTER_COMMIT, on_error=OnError.CONTAIN, defer=deferred)
    hook.register(seen.append)
    hook.emit(Happened(4))
    assert seen == []
    deferred.rollback()
    hook.emit(Happened(5))
    deferred.commit()
    assert seen == [Happened(5)]


def test_after_commit_an_error_is_logged_and_the_other_handlers_still_run(caplog):
    deferred, seen = Deferred(), []
    hook = Hook("happened", runs=Runs.AFTER_COMMIT, on_error=OnError.CONTAIN, defer=deferred)
    hook.register(fails)
    hook.register(seen.append)
    hook.emit(Happened(6))
    with caplog.at_level(logging.ERROR, logger="common.hooks"):
        deferred.commit()  # does not raise
    assert seen == [Happened(6)]
    [record] = caplog.records
    assert "'happened' hook failed: fails" in record.getMessage()
    assert record.exc_info is not None and str(record.exc_info[1]) == "handler failed on 6"


def test_a_hook_without_handlers_defers_nothing():
    deferred = Deferred()
    Hook("happened", runs=Runs.AFTER_COMMIT, on_error=OnError.CONTAIN, defer=deferred).emit(Happened(7))
    assert deferred.waiting == []


@pytest.mark.parametrize(("runs", "on_error", "defer"), [
    (Runs.INSIDE_TRANSACTION, OnError.CONTAIN, None),  # would commit half of a change
    (Runs.INSIDE_TRANSACTION, OnError.PROPAGATE, Deferred()),  # inside means now
    (Runs.AFTER_COMMIT, OnError.PROPAGATE, Deferred()),  # the change is committed: nothing to undo
    (Runs.AFTER_COMMIT, OnError.CONTAIN, None),  # nothing to wait for the commit with
])
def test_a_hook_that_could_not_keep_its_word_is_refused(runs, on_error, defer):
    with pytest.raises(ValueError, match="hook 'odd'"):
        Hook("odd", runs=runs, on_error=on_error, defer=defer)


def test_a_registry_keeps_each_thing_once_in_order():
    registry: Registry[str] = Registry("names")
    assert registry.register("b") == "b"
    registry.register("a")
    registry.register("b")
    assert list(registry) == ["b", "a"] and "a" in registry and len(registry) == 2


# --- on the database ---------------------------------------------------------------------------------------
@pytest.mark.django_db
def test_an_error_inside_the_transaction_rolls_the_change_back(monkeypatch):
    """The real rename, with a failing handler after the rooms' own: the rename does not happen."""
    handlers = Registry[Callable[[players.PlayerRenamed], None]]("player renamed")
    for handler in players.PLAYER_RENAMED.handlers:
        handlers.register(handler)
    handlers.register(lambda renamed: fails(Happened(8)))
    monkeypatch.setattr(players.PLAYER_RENAMED, "handlers", handlers)
    player = players.player_create(name="Ann", now=NOW)
    with pytest.raises(RuntimeError, match="handler failed on 8"):
        players.player_rename(player=player, name="Bea")
    assert Player.objects.get(pk=player.pk).name == "Ann"


@pytest.mark.django_db(transaction=True)
def test_after_commit_on_the_database_runs_on_commit_only_and_contains_its_error(caplog):
    hook = Hook("happened", runs=Runs.AFTER_COMMIT, on_error=OnError.CONTAIN, defer=transaction.on_commit)
    seen: list[tuple[int, bool]] = []
    hook.register(fails)
    hook.register(lambda event: seen.append((event.n, Player.objects.filter(name=f"P{event.n}").exists())))
    with pytest.raises(KeyError), transaction.atomic():
        players.player_create(name="P1", now=NOW)
        hook.emit(Happened(1))
        raise KeyError("rolled back")
    with caplog.at_level(logging.ERROR, logger="common.hooks"), transaction.atomic():
        players.player_create(name="P2", now=NOW)
        hook.emit(Happened(2))
        assert seen == []
    # Committed: the handler saw the row from outside the transaction, after the failing one was logged.
    assert seen == [(2, True)]
    assert [r.getMessage() for r in caplog.records] == ["a handler of the 'happened' hook failed: fails"]
    hook.emit(Happened(3))  # outside a transaction: at once
    assert seen[-1] == (3, False)
