"""What a log line is about: the room, game and player of the work in hand, where known.

The edges bind them (the room websocket binds its room and player, the ticker the game it acts
on); they live in context variables, so each connection's task and each scheduled action has its
own, and ``asgiref`` carries them into and back out of the database thread. A log call can also pass
them itself: ``log.info("...", extra={"game": game_id})`` wins over the bound value.
"""

from __future__ import annotations

import logging
from contextvars import ContextVar

FIELDS = ("room", "game", "player")

_vars: dict[str, ContextVar[str | None]] = {name: ContextVar(f"log_{name}", default=None) for name in FIELDS}


def one_line(exc: BaseException, *, limit: int = 300) -> str:
    """``Type: message`` on one line (at most ``limit`` characters of message), even for a multi-line
    database error: what a warning says of a failure whose traceback only ``LOG_LEVEL=DEBUG`` shows."""
    return f"{type(exc).__name__}: {' '.join(str(exc).split())[:limit]}"


def bind(*, room: object = None, game: object = None, player: object = None) -> None:
    """Remember, for the rest of this task (or thread), what the work is about; None leaves a field as it is."""
    for name, value in (("room", room), ("game", game), ("player", player)):
        if value is not None:
            _vars[name].set(str(value))


def fields_of(record: logging.LogRecord) -> dict[str, str]:
    """The known fields for ``record``: passed with ``extra=`` first, else bound in this context."""
    found: dict[str, str] = {}
    for name in FIELDS:
        value = getattr(record, name, None)
        if value is None:
            value = _vars[name].get()
        if value is not None:
            found[name] = str(value)
    return found
