"""How a lower layer tells the layers above what happened, without importing them: one typed hook.

A :class:`Hook` carries one kind of event (a frozen dataclass). The layers above register their handlers
at start-up (in an ``AppConfig.ready``); the layer below emits the event. Each hook states, where it is
defined, when its handlers run and what becomes of a handler's error. Two pairs make sense, and only
those are accepted:

- ``runs=Runs.INSIDE_TRANSACTION, on_error=OnError.PROPAGATE``: the handlers run at once, inside the
  caller's transaction, and their changes are part of it; an error propagates, so the whole change rolls
  back (a handler's error contained there would commit half of the change, and on PostgreSQL a failed
  statement leaves the transaction unusable anyway).
- ``runs=Runs.AFTER_COMMIT, on_error=OnError.CONTAIN``: the handlers run once the caller's transaction
  has committed (at once outside a transaction), each on its own: an error is logged and the others still
  run (the change stands whatever they do; raising would tell its caller it failed).

The after-commit deferral is handed in (``defer``: ``django.db.transaction.on_commit`` in the apps), so
this module stays free of Django like the rest of ``common`` (the tests defer by hand).

A :class:`Registry` is the same registration for what is not an event: things the layer below collects
from the layers above and calls itself (the parts of a player's page, the services of every event loop).
Registering a thing again, or a handler again, keeps one: ``ready()`` may run more than once.
"""

from __future__ import annotations

import enum
import functools
import logging
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")
EventT = TypeVar("EventT")

# What an after-commit hook defers its handlers with: called with a callable, it runs it once the current
# transaction commits (and drops it if the transaction rolls back).
Defer = Callable[[Callable[[], None]], None]


class Registry(Generic[T]):
    """Things registered by the layers above, in the order registered, each once."""

    __slots__ = ("_items", "name")

    def __init__(self, name: str) -> None:
        self.name = name
        # Replaced whole on each registration: a reader in another thread sees the old or the new tuple.
        self._items: tuple[T, ...] = ()

    def register(self, item: T) -> T:
        """Add ``item`` (registering it again changes nothing); returns it, so it can decorate."""
        if item not in self._items:
            self._items = (*self._items, item)
        return item

    def __iter__(self) -> Iterator[T]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, item: object) -> bool:
        return item in self._items

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}: {len(self._items)} registered>"


class Runs(enum.Enum):
    """When a hook's handlers run."""

    INSIDE_TRANSACTION = "inside the transaction"
    AFTER_COMMIT = "after commit"


class OnError(enum.Enum):
    """What becomes of a handler's error."""

    PROPAGATE = "propagate"  # to the emitter: its transaction rolls back
    CONTAIN = "contain and log"  # logged; the other handlers still run


class Hook(Generic[EventT]):
    """One kind of event the layers above hear of (see the module docstring)."""

    __slots__ = ("_defer", "handlers", "name", "on_error", "runs")

    def __init__(self, name: str, *, runs: Runs, on_error: OnError, defer: Defer | None = None) -> None:
        """A hook named ``name`` (in its error lines) that keeps its word as ``runs`` and ``on_error`` say.

        Raises:
            ValueError: a pair of ``runs`` and ``on_error`` other than the two the module describes, an
                after-commit hook without ``defer``, or an inside-the-transaction one with it.
        """
        if runs is Runs.INSIDE_TRANSACTION and (on_error is not OnError.PROPAGATE or defer is not None):
            raise ValueError(f"hook {name!r}: inside the transaction, an error propagates and nothing is deferred")
        if runs is Runs.AFTER_COMMIT and (on_error is not OnError.CONTAIN or defer is None):
            raise ValueError(f"hook {name!r}: after commit, an error is contained and the handlers are deferred")
        self.name, self.runs, self.on_error, self._defer = name, runs, on_error, defer
        self.handlers: Registry[Callable[[EventT], None]] = Registry(name)

    def register(self, handler: Callable[[EventT], None]) -> Callable[[EventT], None]:
        """Have ``handler`` hear every event from now on (registering it again changes nothing)."""
        return self.handlers.register(handler)

    def emit(self, event: EventT) -> None:
        """Tell every registered handler of ``event``, as the hook says (see the module docstring).

        Raises:
            Exception: inside the transaction, whatever a handler raised (the later handlers do not run).
        """
        handlers = tuple(self.handlers)
        if not handlers:
            return
        if self._defer is None:
            for handler in handlers:
                handler(event)
            return
        self._defer(functools.partial(self._run_contained, handlers, event))

    def _run_contained(self, handlers: tuple[Callable[[EventT], None], ...], event: EventT) -> None:
        for handler in handlers:
            try:
                handler(event)
            except Exception:
                log.exception("a handler of the %r hook failed: %s", self.name,
                              getattr(handler, "__qualname__", repr(handler)))

    def __repr__(self) -> str:
        return f"<Hook {self.name!r}: {self.runs.value}, errors {self.on_error.value}, {len(self.handlers)} handlers>"
