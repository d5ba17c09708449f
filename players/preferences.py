"""A player's preferences: theme, sound, the two-tap drop, premoves, the threats hint, the board, blind
mode and the language.

``GET /api/preferences`` reads them (the defaults for a device without a player), ``PATCH`` changes some
(``docs/protocol.md``, "Preferences"). Each key has one type and one default here; a row stores only the
keys that differ from the defaults, so a default changed later reaches everyone who never chose.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from common.errors import Refused
from players.language import CODES as LANGUAGES
from players.models import Player, Preferences

THEMES = ("system", "light", "dark")
BOARDS = ("3d", "top")
DEFAULTS: Mapping[str, Any] = {
    "theme": "system",  # follow the system's prefers-color-scheme unless light or dark is chosen
    "sound": True,
    "volume": 70,
    "confirm_move": True,  # the two-tap drop
    "premove": False,
    "show_threats": False,
    "board": "3d",
    "blind": False,  # blind mode: the room's board in words, every move announced (docs/accessibility.md)
    "language": None,  # one of settings.LANGUAGES; None: the browser's (players.language)
}


def _valid(key: str, value: object) -> bool:
    if key == "theme":
        return value in THEMES
    if key == "board":
        return value in BOARDS
    if key == "language":
        return value is None or (isinstance(value, str) and value in LANGUAGES)
    if key == "volume":
        return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 100
    return isinstance(value, bool)


def preferences_of(player: Player | None) -> dict[str, Any]:
    """Every preference of ``player`` (the defaults for None, or where it never chose)."""
    if player is None:
        return dict(DEFAULTS)
    row = Preferences.objects.filter(player=player).first()
    stored = row.values if row is not None else {}
    return {key: stored.get(key, default) for key, default in DEFAULTS.items()}


def preferences_change(*, player: Player, changes: object, now: datetime) -> dict[str, Any]:
    """Change some of ``player``'s preferences; returns them all.

    Raises:
        Refused(bad_request): ``changes`` is not an object, names an unknown preference, or gives one a
            value of the wrong kind (every problem named; nothing changed).
    """
    if not isinstance(changes, dict):
        raise Refused("bad_request", gettext("Send the preferences to change as a JSON object."))
    problems = [gettext("%(key)s: unknown") % {"key": key} for key in changes if key not in DEFAULTS]
    problems += [_expected(key) for key, value in changes.items() if key in DEFAULTS and not _valid(key, value)]
    if problems:
        raise Refused("bad_request", gettext("Preferences: %(problems)s.") % {"problems": "; ".join(sorted(problems))})
    with transaction.atomic():
        row, _ = Preferences.objects.select_for_update().get_or_create(player=player, defaults={"updated_at": now})
        merged = {**row.values, **changes}
        row.values = {key: value for key, value in merged.items() if DEFAULTS[key] != value}
        row.updated_at = now
        row.save()
    return {key: row.values.get(key, default) for key, default in DEFAULTS.items()}


def language_keep(*, player: Player, language: str | None, now: datetime) -> None:
    """``language`` as ``player``'s language preference, unless it has one already or ``language`` is None:
    an account registered keeps the language it was registered in, the one its emails and notifications
    are then written in (``players.language.language_of``); English by default is no choice, kept as none."""
    if language is None or not _valid("language", language):
        return
    with transaction.atomic():
        row, _ = Preferences.objects.select_for_update().get_or_create(player=player, defaults={"updated_at": now})
        if row.values.get("language") is None:
            row.values = {**row.values, "language": language}
            row.updated_at = now
            row.save()


def _expected(key: str) -> str:
    """What is wrong with ``key``'s value, in the active language."""
    if key == "theme":
        return gettext("%(key)s: system, light or dark") % {"key": key}
    if key == "board":
        return gettext("%(key)s: 3d or top") % {"key": key}
    if key == "language":
        return gettext("%(key)s: %(languages)s or null") % {"key": key, "languages": ", ".join(LANGUAGES)}
    if key == "volume":
        return gettext("%(key)s: a whole number from 0 to 100") % {"key": key}
    return gettext("%(key)s: true or false") % {"key": key}
