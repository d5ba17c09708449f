"""Translating the sentences of common's refusals and of the pure wire formats without importing Django.

``common`` (and ``lobby.protocol``, ``tournaments.protocol``) stay free of Django, so Django's translation
functions are handed in at start-up (``common.apps``); until then, and outside Django, every sentence is
its English source. Their messages are marked as Django's are (``gettext``, ``ngettext``), so
``makemessages`` extracts them into ``common/locale``.

The engine and the record file import nothing of common: their errors carry a ``template`` and its
``params`` (English message = template % params), and :func:`render` translates such a text at the edge,
in the language active there (a param that is itself such a text is rendered first).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol, runtime_checkable

_gettext: Callable[[str], str] = str


def _english_plural(singular: str, plural: str, number: int) -> str:
    return singular if number == 1 else plural


_ngettext: Callable[[str, str, int], str] = _english_plural


def install(gettext_function: Callable[[str], str], ngettext_function: Callable[[str, str, int], str]) -> None:
    """Translate with these from now on (Django's ``gettext`` and ``ngettext``, by ``common.apps``)."""
    global _gettext, _ngettext
    _gettext, _ngettext = gettext_function, ngettext_function


def gettext(message: str) -> str:
    """``message`` in the active language."""
    return _gettext(message)


def gettext_noop(message: str) -> str:
    """``message`` itself, marked for ``makemessages``: a sentence translated later, where it is shown."""
    return message


def ngettext(singular: str, plural: str, number: int) -> str:
    """The form of ``singular``/``plural`` for ``number``, in the active language."""
    return _ngettext(singular, plural, number)


@runtime_checkable
class Template(Protocol):
    """A text kept as its English template and params (an engine or record error)."""

    @property
    def template(self) -> str: ...

    @property
    def params(self) -> Mapping[str, object]: ...


def render(text: Template) -> str:
    """``text`` in the active language: its template translated, filled with its params (each param that
    is a :class:`Template` rendered first)."""
    translated = gettext(text.template)
    if not text.params:
        return translated
    return translated % {key: render(value) if isinstance(value, Template) else value
                         for key, value in text.params.items()}
