"""Reports and what staff do about them: a report (added to the queue's open entry for the same player,
whoever made it), and the actions dismiss, warn, mute for 1, 7 or 30 days, ban, each recorded with the staff
member and the time. A mute is read by the chat on every message (``lobby.chat.services.SAY_CHECKS``), in
the database, so it holds on every server process; a warning is shown on the player's next page
(``moderation.middleware``) until they acknowledge it.
"""

from __future__ import annotations

import contextlib
import logging
import uuid
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext, gettext_noop

from common.errors import Refused
from common.ratelimit import player_and_address, quota_take
from games.models import Game
from lobby.models import ChatMessage
from moderation.models import Action, ActionKind, Reason, Report
from players.models import Player
from players.services import player_ban

log = logging.getLogger(__name__)

TEXT_MAX_CHARS = 500
DAY = 86400
MUTE_DAYS = (1, 7, 30)
# Stored in English (the admin reads them); the warned player reads them translated (moderation.views).
WARNINGS = {
    Reason.ABUSE: gettext_noop("A moderator warns you: insulting or harassing other players is not allowed here."),
    Reason.CHEATING: gettext_noop("A moderator warns you: getting help from an engine or another person is not "
                                  "allowed."),
    Reason.SPAM: gettext_noop("A moderator warns you: do not flood the chat or post advertising."),
    Reason.OTHER: gettext_noop("A moderator warns you: your behaviour was reported and breaks the site's rules."),
}


def _player(player_id: object) -> Player:
    try:
        found = Player.objects.filter(pk=uuid.UUID(str(player_id))).first()
    except ValueError:
        found = None
    if found is None:
        raise Refused("no_player", gettext("There is no such player."))
    return found


def _message_id(value: object) -> int | None:
    if value is None:
        return None
    if not isinstance(value, bool) and isinstance(value, int | str):
        with contextlib.suppress(ValueError):
            return int(value)
    raise Refused("bad_request", gettext("The message is an id or null."))


def report_create(*, reporter: Player, player_id: object, reason: object, text: object, game_id: object,
                  message_id: object, now: datetime, address: str | None = None) -> tuple[Report, bool]:
    """``reporter``'s report of a player; (the queue's entry for the player, whether it was open already).

    Every report of one player while the queue holds an open entry for them is added to that entry (its
    ``count``, its text), whoever makes it: many reports of one player are one entry a moderator closes once.

    Raises:
        Refused: no_player, self_report, bad_reason, too_long (text), no_game, not_found (the message),
            bad_report (the message is not the player's), rate_limited (``REPORTS_PER_DAY`` a day by the
            reporter, ``REPORTS_PER_DAY_PER_ADDRESS`` by the client ``address``: a guest costs nothing).
    """
    player = _player(player_id)
    if player.pk == reporter.pk:
        raise Refused("self_report", gettext("You cannot report yourself."))
    if reason not in Reason.values:
        raise Refused("bad_reason", gettext("The reason is one of %(reasons)s.")
                      % {"reasons": ", ".join(Reason.values)})
    body = text.strip() if isinstance(text, str) else ""
    if text is not None and not isinstance(text, str):
        raise Refused("bad_request", gettext("The text is a string."))
    if len(body) > TEXT_MAX_CHARS:
        raise Refused("too_long", gettext("A report's text is at most %(most)s characters.") % {"most": TEXT_MAX_CHARS})
    game_pk = str(game_id) if game_id is not None else None
    game = None
    if game_pk is not None:
        try:
            game = Game.objects.filter(pk=uuid.UUID(game_pk)).first()
        except ValueError:
            game = None
        if game is None:
            raise Refused("no_game", gettext("There is no such game."))
    message_pk = _message_id(message_id)
    message = None
    if message_pk is not None:
        message = ChatMessage.objects.filter(pk=message_pk).first()
        if message is None:
            raise Refused("not_found", gettext("There is no such chat message (it may have been deleted)."))
        if message.player_id != player.pk:
            raise Refused("bad_report", gettext("That chat message is not the reported player's."))
    room_id = message.room_id if message is not None else game.room_id if game is not None else None
    quota_take(cache, player_and_address("reports", player_id=str(reporter.pk), per_player=settings.REPORTS_PER_DAY,
                                          address=address, per_address=settings.REPORTS_PER_DAY_PER_ADDRESS,
                                          window_seconds=DAY),
               now=now, message=gettext("You have made too many reports today."))
    with transaction.atomic():
        Player.objects.select_for_update().filter(pk=player.pk).first()  # the reports of one player in turn
        earlier = Report.objects.filter(player=player, closed_at__isnull=True).order_by("created_at").first()
        if earlier is not None:
            earlier.count += 1
            earlier.text = "\n---\n".join(part for part in (earlier.text, body) if part)
            earlier.game = earlier.game or game
            earlier.message = earlier.message or message
            earlier.room_id = earlier.room_id or room_id
            earlier.reason = earlier.reason if earlier.reason != Reason.OTHER else str(reason)
            earlier.updated_at = now
            earlier.save()
            return earlier, True
        report = Report.objects.create(reporter=reporter, player=player, reason=str(reason), text=body, game=game,
                                       message=message, room_id=room_id, created_at=now, updated_at=now)
    log.info("report %s of player %s (%s)", report.pk, player.pk, reason, extra={"player": str(reporter.pk)})
    return report, False


def report_json(report: Report, *, merged: bool) -> dict[str, Any]:
    return {"id": report.pk, "player": str(report.player_id), "reason": report.reason, "count": report.count,
            "merged": merged}


# --- actions -------------------------------------------------------------------------------------
def _record(report: Report, kind: ActionKind, *, staff: User, now: datetime, until: datetime | None = None,
            message: str = "") -> Action:
    with transaction.atomic():
        action = Action.objects.create(player_id=report.player_id, report=report, kind=kind, staff=staff,
                                       created_at=now, until=until, message=message)
        Report.objects.filter(pk=report.pk, closed_at__isnull=True).update(closed_at=now)
    log.info("moderation: %s of player %s by %s", kind, report.player_id, staff.username,
             extra={"player": str(report.player_id)})
    return action


def report_dismiss(report: Report, *, staff: User, now: datetime) -> Action:
    """Close ``report`` with nothing done to the player."""
    return _record(report, ActionKind.DISMISS, staff=staff, now=now)


def report_warn(report: Report, *, staff: User, now: datetime) -> Action:
    """Warn the reported player: shown on their next page until they acknowledge it."""
    return _record(report, ActionKind.WARN, staff=staff, now=now, message=WARNINGS[Reason(report.reason)])


def report_mute(report: Report, *, days: int, staff: User, now: datetime) -> Action:
    """Mute the reported player in every chat for ``days`` (1, 7 or 30) days from ``now``."""
    if days not in MUTE_DAYS:
        raise ValueError(f"a mute lasts {MUTE_DAYS} days, not {days}")
    return _record(report, ActionKind.MUTE, staff=staff, now=now, until=now + timedelta(days=days))


def report_ban(report: Report, *, staff: User, now: datetime) -> Action:
    """Ban the reported player, as the players' admin does (their sockets close, new ones are refused)."""
    player_ban(player=report.player, now=now)
    return _record(report, ActionKind.BAN, staff=staff, now=now)


# --- what the player meets ------------------------------------------------------------------------
def muted_until(player: Player, *, now: datetime) -> datetime | None:
    """The end of ``player``'s longest mute still running at ``now``, or None."""
    return (Action.objects.filter(player=player, kind=ActionKind.MUTE, until__gt=now)
            .order_by("-until").values_list("until", flat=True).first())


def refuse_muted(player: Player, now: datetime) -> None:
    """Registered with ``lobby.chat.services.SAY_CHECKS``.

    Raises:
        Refused(muted): a moderator muted ``player`` until after ``now``.
    """
    until = muted_until(player, now=now)
    if until is not None:
        raise Refused("muted", gettext("A moderator has muted you in chat until %(until)s UTC.")
                      % {"until": f"{until:%Y-%m-%d %H:%M}"})


def pending_warning(player_id: str | uuid.UUID) -> Action | None:
    """The oldest warning the player has not acknowledged yet, or None (also for a malformed id)."""
    try:
        return (Action.objects.filter(player_id=player_id, kind=ActionKind.WARN, acknowledged_at__isnull=True)
                .order_by("created_at").first())
    except (ValueError, TypeError, ValidationError):
        return None


def warning_acknowledge(*, player: Player, action_id: int, now: datetime) -> bool:
    """``player`` has read warning ``action_id``; False if it was not theirs or already acknowledged."""
    return bool(Action.objects.filter(pk=action_id, player=player, kind=ActionKind.WARN,
                                      acknowledged_at__isnull=True).update(acknowledged_at=now))
