"""Telling a player something: :func:`notify` stores one notification in the caller's transaction and,
once it commits, the layers above hear of it (:data:`NOTIFIED`) and take it live to every open page of
the player, on any process (``lobby.apps`` registers that delivery). :func:`notifications_read` marks
them read.

Exactly once: a notification is made by the transaction that changed what it tells of (a challenge's
row, locked), so it is made once when that change is; an event with no such row of its own (an arena
about to start) names itself with a ``key``, and a player has at most one notification per key.

The kinds are one registry (:data:`notifications.kinds.KINDS`): each app registers the kinds it sends,
with their texts, at start-up. Services take ``now``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import translation

from common.hooks import Hook, OnError, Runs
from notifications.kinds import KINDS
from notifications.models import KEY_LENGTH, TEXT_LENGTH, URL_LENGTH, Notification, PlayerId
from notifications.protocol import notification_json
from notifications.selectors import unread_count
from players.language import language_of
from players.models import Player

# Marked read at once: at most this many ids a request.
MAX_READ_IDS = 100


@dataclass(frozen=True, slots=True)
class Notified:
    """A notification stored and committed: its JSON (:func:`notification_json`, its text in ``language``:
    the player's, :func:`players.language.language_of`) and the player's unread count just after it."""

    player_id: str
    notification: dict[str, Any]
    unread: int
    language: str


# After commit: the live delivery (registered by lobby.apps). A handler's error is logged; the
# notification stands and the page reads it on its next GET.
NOTIFIED: Hook[Notified] = Hook("notified", runs=Runs.AFTER_COMMIT, on_error=OnError.CONTAIN,
                                defer=transaction.on_commit)


def notify(*, player_id: PlayerId, kind: str, text: str | None = None, url: str = "",
           data: dict[str, Any] | None = None, key: str = "", now: datetime) -> Notification | None:
    """Tell ``player_id`` of something (``data`` for a client, ``url`` to open), in the caller's transaction;
    every open page of the player receives it once that commits, its text written from ``data`` in the
    player's language (its kind's text, ``notifications.kinds``). ``text``: the stored English text, when the kind's
    registered text does not make it (by default the kind's text in English).

    ``key`` (optional) names the event: a second notification with the same key for the same player is
    not made (None is returned), whichever process tries. A closed account is told nothing (None).

    Raises:
        ValueError: ``kind`` is not registered in :data:`KINDS` (a programming error, not a refusal).
    """
    if kind not in KINDS:
        raise ValueError(f"no notification kind {kind!r} is registered")
    if Player.objects.filter(pk=player_id, closed_at__isnull=False).exists():
        return None  # a closed account (players.services.player_close): nobody reads it any more
    data = data or {}
    if text is None:
        with translation.override(settings.LANGUAGE_CODE):
            text = KINDS.text(kind, data, stored="")
    row = Notification(player_id=player_id, kind=kind, created_at=now, text=text[:TEXT_LENGTH],
                       url=url[:URL_LENGTH], data=data, key=key[:KEY_LENGTH])
    if key:
        try:
            with transaction.atomic():  # a savepoint: a duplicate key leaves the caller's transaction usable
                row.save(force_insert=True)
        except IntegrityError:
            return None
    else:
        row.save(force_insert=True)
    language = language_of(player_id)
    with translation.override(language):
        shown = notification_json(row)
    NOTIFIED.emit(Notified(str(player_id), shown, unread_count(player_id), language))
    return row


def notifications_read(*, player_id: PlayerId, ids: Iterable[int] | None = None, now: datetime) -> int:
    """Mark the player's notifications ``ids`` read (all of them if ``ids`` is None); ids of someone
    else's, or read already, change nothing. Returns the unread count after."""
    rows = Notification.objects.filter(player_id=player_id, read_at__isnull=True)
    if ids is not None:
        rows = rows.filter(pk__in=list(ids))
    rows.update(read_at=now)
    return unread_count(player_id)


def notifications_read_key(*, player_id: PlayerId, key: str, now: datetime) -> None:
    """Mark read the player's notification of the event ``key``, if unread (the event is over: a
    challenge answered, so its notification no longer waits for the player)."""
    Notification.objects.filter(player_id=player_id, key=key[:KEY_LENGTH], read_at__isnull=True).update(read_at=now)
