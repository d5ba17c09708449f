"""Rule violations, each with a stable machine ``code`` and a ``message`` a player can read.

The engine knows no Django: a message is kept as its English ``template`` (marked by :func:`gettext_noop`
for ``makemessages``) and its ``params``; the edge that shows it translates it, ``message`` is the English.
Every error is a ``ValueError``: the input (a mode id, a direction, a board, a spawn, a record or a move in
the run's state) is what is wrong.
"""

from __future__ import annotations

from collections.abc import Mapping


def gettext_noop(message: str) -> str:
    """``message`` itself, marked for translation where it is shown."""
    return message


class ArcadeError(ValueError):
    """Base of every error the arcade's engine reports.

    Attributes:
        code: stable machine-readable identifier (``bad_mode``, ``no_undo``, ``undo_spent`` ...).
        message: one sentence, ending with a period, that can be shown to a player (English).
        template, params: the message before its params were put in (``message = template % params``).
        step: 0-based index of the offending step in a run's record, or None when not replaying one.
    """

    code = "arcade_error"

    def __init__(self, template: str, *, params: Mapping[str, object] | None = None, step: int | None = None) -> None:
        self.template, self.params = template, dict(params or {})
        self.message = template % self.params if self.params else template
        super().__init__(self.message)
        self.step = step


class BadMode(ArcadeError):
    """A mode id that is not one of ``classic``, ``cube2``, ``cube3``, ``cube3-hard``."""

    code = "bad_mode"

    def __init__(self, mode: str) -> None:
        super().__init__(gettext_noop('"%(mode)s" is not an arcade mode.'), params={"mode": mode})
        self.mode = mode


class BadDirection(ArcadeError):
    """A direction that is not one of the board's (``forward`` and ``backward`` exist on the cubes only)."""

    code = "bad_dir"

    def __init__(self, direction: str) -> None:
        super().__init__(gettext_noop('"%(dir)s" is not a direction of this board.'), params={"dir": direction})
        self.direction = direction


class BadBoard(ArcadeError):
    """A board of the wrong size, or a cell that is neither empty (0) nor a power of two of 2 or more."""

    code = "bad_board"


class BadSpawn(ArcadeError):
    """A spawn on a cell that is not empty or not on the board, a value other than 2 or 4, or the wrong
    number of spawns for the move."""

    code = "bad_spawn"


class BadRecord(ArcadeError):
    """A record that cannot be read, or whose replay breaks a rule (``step`` says where)."""

    code = "bad_record"


class IllegalMove(ArcadeError):
    """Base of the moves, undos, continues and ends that the run's state refuses; the run is unchanged."""

    code = "illegal_move"


class NotPlaying(IllegalMove):
    """A move in a run that is won (continue it first), over (stuck) or ended."""

    code = "not_playing"

    def __init__(self, status: str) -> None:
        template = (gettext_noop("The run is won: continue it or end it.") if status == "won"
                    else gettext_noop("The run is over: no move is left.") if status == "over"
                    else gettext_noop("The run has ended."))
        super().__init__(template)
        self.status = status


class RunEnded(IllegalMove):
    """An undo, a continue or an end in a run that has ended (by the player or at the move cap)."""

    code = "run_ended"

    def __init__(self) -> None:
        super().__init__(gettext_noop("The run has ended."))


class NoUndo(IllegalMove):
    """An undo in a mode without one (``classic``)."""

    code = "no_undo"

    def __init__(self) -> None:
        super().__init__(gettext_noop("This game has no undo."))


class UndoSpent(IllegalMove):
    """An undo with the snapshot slot empty: two undos in a row, or an undo before the first move."""

    code = "undo_spent"

    def __init__(self) -> None:
        super().__init__(gettext_noop("There is no move to undo: one undo at a time."))


class MovedNothing(IllegalMove):
    """A move that moves nothing where a move must change the board (a record's step)."""

    code = "moved_nothing"

    def __init__(self) -> None:
        super().__init__(gettext_noop("A move that moves nothing is not a move."))


class NotWon(IllegalMove):
    """A continue in a run that is not waiting at its target (``won``)."""

    code = "not_won"

    def __init__(self) -> None:
        super().__init__(gettext_noop("Only a won run can be continued."))
