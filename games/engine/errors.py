"""Rule violations, each with a stable machine ``code`` and a ``message`` a player can read.

The engine knows no Django: a message is kept as its English ``template`` (marked by :func:`gettext_noop`
for ``makemessages``) and its ``params``; the edge that shows it translates it
(``common.translation.render``), ``message`` is the English.

The base and the errors of reading values live here, below the values; the errors of playing a move
(``PegFull``, ``GameOver``) live with :class:`~games.engine.position.Position`, which raises them, so the
engine's modules import one another in one direction only.
"""

from __future__ import annotations

from collections.abc import Mapping


def gettext_noop(message: str) -> str:
    """``message`` itself, marked for translation where it is shown."""
    return message


class EngineError(ValueError):
    """Base of every rule violation the engine reports.

    Attributes:
        code: stable machine-readable identifier (``bad_peg``, ``peg_full``, ``game_over``).
        message: one sentence, ending with a period, that can be shown to a player (English).
        template, params: the message before its params were put in (``message = template % params``).
        ply: 0-based index of the offending move in a game record, or None when not known.
    """

    code = "engine_error"

    def __init__(self, template: str, *, ply: int | None = None, params: Mapping[str, object] | None = None) -> None:
        self.template, self.params = template, dict(params or {})
        self.message = template % self.params if self.params else template
        super().__init__(self.message)
        self.ply = ply


class BadPeg(EngineError):
    """A peg name that is not one of ``a1`` .. ``d4``."""

    code = "bad_peg"

    def __init__(self, name: str, *, ply: int | None = None) -> None:
        super().__init__(gettext_noop('"%(name)s" is not a peg.'), ply=ply, params={"name": name})
        self.name = name
