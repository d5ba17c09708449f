"""Notifications by email: the kinds an account chose (``PATCH /api/accounts/me`` ``email_notifications``,
all off by default) are emailed to its confirmed address when a notification of that kind is made, from the
outbox (so once, whichever process, retried while SMTP is down). At most one ``your_turn`` email per game
every ``YOUR_TURN_EVERY``. Each email has a one-click unsubscribe link for its kind, also as the
``List-Unsubscribe`` and ``List-Unsubscribe-Post`` headers (RFC 8058): a mail client POSTs to it.

:func:`notification_email` is registered with ``notifications.services.NOTIFIED`` (after the notification's
transaction commits), so an email never goes out for a notification that was rolled back.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.core import signing
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy

from accounts.address import site_url
from accounts.models import AccountEmail
from common.errors import Refused
from mail.outbox import email_queue, email_sent_since
from notifications.services import Notified
from players.models import Player

log = logging.getLogger(__name__)

EMAIL_KINDS = ("challenge", "your_turn", "time_running_out", "game_over")
# Each emailed kind as a person reads it (the emails' footer, the unsubscribe page).
_KIND_NAMES = {"challenge": gettext_lazy("challenge"), "your_turn": gettext_lazy("your turn"),
               "time_running_out": gettext_lazy("time running out"), "game_over": gettext_lazy("game over")}
YOUR_TURN_EVERY = timedelta(hours=12)
_SALT = "accounts.unsubscribe"


def preferences(player: Player | None) -> dict[str, bool]:
    """Each emailed kind, and whether the account chose it."""
    row = AccountEmail.objects.filter(player=player).first() if player is not None else None
    chosen = row.notifications if row is not None and isinstance(row.notifications, dict) else {}
    return {kind: chosen.get(kind) is True for kind in EMAIL_KINDS}


def preferences_set(*, player: Player, choices: object) -> dict[str, bool]:
    """Turn the kinds in ``choices`` (``{kind: bool}``, others unchanged) on or off; the preferences now.

    Raises:
        Refused: no_account (a guest), bad_request (not an object of known kinds to booleans).
    """
    if player.user_id is None:
        raise Refused("no_account", gettext("Only an account gets emails: register first."))
    if not isinstance(choices, dict) or not all(k in EMAIL_KINDS and isinstance(v, bool) for k, v in choices.items()):
        raise Refused("bad_request", gettext("email_notifications maps some of %(kinds)s to true or false.")
                      % {"kinds": ", ".join(EMAIL_KINDS)})
    with transaction.atomic():
        row, _ = AccountEmail.objects.select_for_update().get_or_create(player=player)
        row.notifications = {**preferences(player), **choices}
        row.save(update_fields=["notifications"])
    return preferences(player)


def kind_name(kind: str) -> str:
    """An emailed kind's name, in the active language."""
    name = _KIND_NAMES.get(kind)
    return kind.replace("_", " ") if name is None else str(name)


def unsubscribe_link(player_id: str, kind: str) -> str:
    return site_url(f"/accounts/unsubscribe/{signing.dumps({'p': player_id, 'k': kind}, salt=_SALT)}")


def unsubscribe(*, token: str) -> str:
    """Turn off the kind ``token`` (from an email's link) names for its account; the kind.

    Raises:
        Refused(bad_link): a forged token.
    """
    try:
        data: dict[str, Any] = signing.loads(token, salt=_SALT)
        player_id, kind = str(data["p"]), str(data["k"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise Refused("bad_link", gettext("This unsubscribe link is not valid.")) from None
    with transaction.atomic():
        row = AccountEmail.objects.select_for_update().filter(player_id=player_id).first()
        if row is not None and isinstance(row.notifications, dict) and kind in EMAIL_KINDS:
            row.notifications = {**row.notifications, kind: False}
            row.save(update_fields=["notifications"])
    return kind


def notification_email(event: Notified) -> None:
    """Registered with ``NOTIFIED``: queue the email of ``event``'s notification if its player chose that
    kind and has a confirmed address (and, for ``your_turn``, had none about that game in 12 hours)."""
    notice = event.notification
    kind = str(notice["kind"])
    if kind not in EMAIL_KINDS:
        return
    now = datetime.fromisoformat(str(notice["created_at"]).replace("Z", "+00:00"))
    game = notice.get("data", {}).get("game") if isinstance(notice.get("data"), dict) else None
    ref = f"game:{game}" if kind == "your_turn" and game else ""
    with transaction.atomic():
        # The account's row serialises its emails (every process), so the 12-hour limit holds.
        row = AccountEmail.objects.select_for_update().filter(player_id=event.player_id,
                                                             confirmed_at__isnull=False).first()
        if row is None or not isinstance(row.notifications, dict) or row.notifications.get(kind) is not True:
            return
        if ref and email_sent_since(to=row.email, kind=kind, ref=ref, since=now - YOUR_TURN_EVERY):
            return
        link = unsubscribe_link(event.player_id, kind)
        url = site_url(str(notice["url"])) if notice.get("url") else site_url("/")
        with translation.override(event.language):  # the notification's text is in it already
            subject = gettext("3D Four in a Row: %(text)s") % {"text": notice["text"]}
            body = gettext('%(text)s\n\n%(url)s\n\n--\nYou get this email because you chose "%(kind)s" emails. '
                           "Stop them with one click: %(link)s\n") % {
                "text": notice["text"], "url": url, "kind": kind_name(kind), "link": link}
        email_queue(to=row.email, kind=kind, ref=ref, now=now, subject=subject[:200], body=body,
                    headers={"List-Unsubscribe": f"<{link}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"})
    log.info("%s email queued", kind, extra={"player": event.player_id})
