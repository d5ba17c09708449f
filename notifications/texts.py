"""What a person reads of a notification, written from its ``data`` when it is shown, in the language active
then: the reader's when they list their notifications, the recipient's when one is delivered live or
emailed (``notifications.services.notify``). So a notification reaches whoever it is for in their own
language, whoever caused it, and reads in the language they choose later.

Each kind's text is registered with the kind (by the part that notifies of it, at start-up). The row's
stored ``text`` (English, written when it was made) is shown for a kind with no text registered, and for a
row whose ``data`` lacks what its text needs now.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

log = logging.getLogger(__name__)

TextOf = Callable[[Mapping[str, Any]], str]


class Texts:
    """The text of each kind: ``kind -> function(data) -> str``, registered once each."""

    def __init__(self) -> None:
        self._texts: dict[str, TextOf] = {}

    def register(self, kind: str, text: TextOf) -> None:
        self._texts[kind] = text

    def of(self, kind: str, data: Mapping[str, Any], *, stored: str) -> str:
        """The text of a notification of ``kind`` with ``data``, in the active language; ``stored`` if the
        kind has no text or its data is not enough for it."""
        text = self._texts.get(kind)
        if text is None:
            return stored
        try:
            return text(data)
        except (KeyError, TypeError, ValueError, AttributeError):
            log.debug("notification %s: its data do not make its text; the stored one is shown", kind)
            return stored


TEXTS = Texts()
