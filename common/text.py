"""The one check of text that comes from outside: no NUL character, no lone surrogate.

PostgreSQL refuses both in a ``text`` column (NUL at all, a lone surrogate because it cannot be encoded in
UTF-8), and Python's UTF-8 encoder refuses a lone surrogate too, so either would be a 500 wherever it was
stored, compared with a row, logged or echoed back. Bytes decoded as UTF-8 never hold a lone surrogate; JSON's
``\\ud800`` escape and the percent-escape ``%00`` are how they arrive. The JSON bodies (``config.parsers``),
the path and query of every request (``config.inputs``) and every websocket frame
(``live.frames.decode_frame``) are checked here, before any view, serializer or consumer sees them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from common.errors import Refused
from common.translation import gettext, gettext_noop

BAD_TEXT = "bad_text"
_FAULT = re.compile("[\x00\ud800-\udfff]")
NUL = "a NUL character"
# The places a refusal names in words (the others are a field's path, "moves[2]", shown as they are).
_PLACES = frozenset((gettext_noop("the text"), gettext_noop("a key"), gettext_noop("the address"),
                     gettext_noop("the query"), gettext_noop("the form")))
_KEY_OF = "a key of "


def text_fault(text: str) -> str | None:
    """What is wrong with ``text`` (``"a NUL character"``, ``"a lone surrogate"``), or None when nothing is."""
    found = _FAULT.search(text)
    if found is None:
        return None
    return NUL if found.group() == "\x00" else "a lone surrogate"


def value_fault(value: object, *, where: str = "") -> tuple[str, str] | None:
    """Where in a parsed JSON value (its strings, and its objects' keys) the first bad text is, and what is
    wrong with it; None when nothing is.

    ``where`` names the value (``"moves[2]"``); a bad key is named by its object, never echoed.
    """
    if isinstance(value, str):
        fault = text_fault(value)
        return None if fault is None else (where or "the text", fault)
    if isinstance(value, Mapping):
        for key, item in value.items():
            key_fault = text_fault(key) if isinstance(key, str) else None
            if key_fault is not None:
                return (f"{_KEY_OF}{where}" if where else "a key", key_fault)
            found = value_fault(item, where=f"{where}.{key}" if where else str(key))
            if found is not None:
                return found
        return None
    if isinstance(value, Sequence) and not isinstance(value, (bytes, bytearray)):
        for index, item in enumerate(value):
            found = value_fault(item, where=f"{where}[{index}]")
            if found is not None:
                return found
    return None


def text_refusal(value: object, *, where: str = "") -> Refused | None:
    """The refusal ``bad_text`` of ``value`` (a string or a parsed JSON value) if any of its text holds a NUL
    or a lone surrogate, naming where and what (never echoing the text); None when all of it is fine."""
    found = value_fault(value, where=where)
    if found is None:
        return None
    place, fault = found
    message = (gettext("%(place)s: text may not hold a NUL character.") if fault == NUL
               else gettext("%(place)s: text may not hold a lone surrogate."))
    return Refused(BAD_TEXT, message % {"place": _place(place)})


def _place(where: str) -> str:
    """A place of :func:`value_fault` in the active language."""
    if where.startswith(_KEY_OF):
        return gettext("a key of %(place)s") % {"place": _place(where[len(_KEY_OF):])}
    return gettext(where) if where in _PLACES else where


def refuse_bad_text(value: object, *, where: str = "") -> None:
    """Raises :func:`text_refusal`'s Refused(bad_text) when there is one."""
    refusal = text_refusal(value, where=where)
    if refusal is not None:
        raise refusal
