"""The kinds a notification may have, each registered once with its text by the app that sends it, at
start-up (in its ``AppConfig.ready``): ``KINDS.register("arena_starting", arena_starting_text)``.
:func:`notifications.services.notify` refuses a kind no app registered; this app registers only its own
(``followed``).

A kind's text is written from the notification's ``data`` when it is shown, in the language active then:
the reader's when they list their notifications, the recipient's when one is delivered live or emailed
(``notifications.services.notify``). So a notification reaches whoever it is for in their own language,
whoever caused it, and reads in the language they choose later. The row's stored ``text`` (English,
written when it was made) is shown for a kind no longer registered, and for a row whose ``data`` lacks
what its text needs now.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping
from typing import Any

log = logging.getLogger(__name__)

TextOf = Callable[[Mapping[str, Any]], str]


class Kinds:
    """Every kind and its text: ``kind -> function(data) -> str``, in the order registered."""

    __slots__ = ("_texts",)

    def __init__(self) -> None:
        # Replaced whole on each registration: a reader in another thread sees the old or the new dict.
        self._texts: dict[str, TextOf] = {}

    def register(self, kind: str, text: TextOf) -> None:
        """Register ``kind`` with its ``text`` (again with the same text changes nothing: ``ready()`` may run
        more than once).

        Raises:
            ValueError: ``kind`` is registered already with another text (two apps claim one kind).
        """
        known = self._texts.get(kind)
        if known is not None and known is not text:
            raise ValueError(f"notification kind {kind!r} is registered already, with another text")
        self._texts = {**self._texts, kind: text}

    def __getitem__(self, kind: str) -> TextOf:
        """The text of ``kind`` (KeyError: not registered)."""
        return self._texts[kind]

    def __contains__(self, kind: object) -> bool:
        return kind in self._texts

    def __iter__(self) -> Iterator[str]:
        return iter(self._texts)

    def __len__(self) -> int:
        return len(self._texts)

    def text(self, kind: str, data: Mapping[str, Any], *, stored: str) -> str:
        """The text of a notification of ``kind`` with ``data``, in the active language; ``stored`` if the
        kind is not registered or its data is not enough for its text."""
        text = self._texts.get(kind)
        if text is None:
            return stored
        try:
            return text(data)
        except (KeyError, TypeError, ValueError, AttributeError):
            log.debug("notification %s: its data do not make its text; the stored one is shown", kind)
            return stored


KINDS = Kinds()
