"""An account's email address: added, confirmed by a signed link valid ``CONFIRM_DAYS`` days, one account per
confirmed address (compared casefolded).

The link's token is Django's ``signing`` of (player, address, when): nothing is stored to check it, a later
address makes an earlier link useless, and the time is checked against the caller's ``now``.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils import translation
from django.utils.translation import gettext, ngettext

from accounts.models import AccountEmail
from common.errors import Refused
from common.ratelimit import Quota, quota_take
from mail.outbox import email_queue
from players.language import language_of
from players.models import Player

log = logging.getLogger(__name__)

CONFIRM_DAYS = 3
# The longest address that can be delivered (RFC 5321's 256-octet path less its angle brackets) and stored
# (``AccountEmail``'s columns); Django's validator takes up to 320.
MAX_EMAIL_CHARS = 254
_SALT = "accounts.confirm-email"


def site_url(path: str) -> str:
    """An absolute link to ``path`` on this site (``SITE_URL``)."""
    return f"{settings.SITE_URL.rstrip('/')}{path}"


def email_key(address: str) -> str:
    """The form every spelling of one address shares (casefolded, trimmed)."""
    return address.strip().casefold()


def clean_email(address: object) -> str:
    """``address`` trimmed, if it is an email address Django accepts within ``MAX_EMAIL_CHARS``.

    Raises:
        Refused(bad_email): anything else.
    """
    text = address.strip() if isinstance(address, str) else ""
    try:
        validate_email(text)
    except ValidationError:
        raise Refused("bad_email", gettext("That is not an email address.")) from None
    if len(text) > MAX_EMAIL_CHARS:
        raise Refused("bad_email", gettext("An email address is at most %(most)s characters.")
                      % {"most": MAX_EMAIL_CHARS})
    return text


def _quotas() -> tuple[Quota, Quota]:
    return (Quota("email-confirm-account", settings.EMAIL_CONFIRMATIONS_PER_DAY_PER_ACCOUNT, 86400),
            Quota("email-confirm-address", settings.EMAIL_CONFIRMATIONS_PER_DAY_PER_ADDRESS, 86400))


def email_add(*, player: Player, address: object, client: str, now: datetime) -> None:
    """Send a confirmation link for ``address`` to it; ``player``'s confirmed address (if any) stays until
    the link is followed. If another account has this address confirmed, the email says so instead (the
    answer to the caller is the same: nothing tells who has an account).

    Raises:
        Refused: no_account (a guest), bad_email, rate_limited (per account and per client address).
    """
    if player.user_id is None:
        raise Refused("no_account", gettext("Only an account has an email address: register first."))
    clean = clean_email(address)
    account_quota, address_quota = _quotas()
    quota_take(cache, [(account_quota, str(player.pk)), (address_quota, client)], now=now,
               message=gettext("Too many confirmation emails."))
    owner = (AccountEmail.objects.filter(email_key=email_key(clean)).exclude(player=player)
             .values_list("player_id", flat=True).first())
    with transaction.atomic():
        row, _ = AccountEmail.objects.select_for_update().get_or_create(player=player)
        row.pending, row.pending_since = clean, now
        row.save(update_fields=["pending", "pending_since"])
        if owner is not None:  # written to the address's owner, in their language
            with translation.override(language_of(owner)):
                email_queue(to=clean, kind="email_taken", now=now,
                            subject=gettext("3D Four in a Row: this address has an account"),
                            body=gettext("Someone asked to add this address to an account of 3D Four in a Row, but "
                                         "it already belongs to another account. If you have forgotten its "
                                         "password, reset it here:\n\n%(link)s\n")
                            % {"link": site_url("/accounts/reset")})
            return
        token = signing.dumps({"p": str(player.pk), "e": clean, "t": int(now.timestamp())}, salt=_SALT)
        # To the account asking, in the language it asks in.
        email_queue(to=clean, kind="confirm", now=now, subject=gettext("3D Four in a Row: confirm your email address"),
                    body=ngettext("Hello %(name)s,\n\nfollow this link within %(days)d day to confirm that this "
                                  "address is yours:\n\n%(link)s\n\nIf you did not ask for it, ignore this email.\n",
                                  "Hello %(name)s,\n\nfollow this link within %(days)d days to confirm that this "
                                  "address is yours:\n\n%(link)s\n\nIf you did not ask for it, ignore this email.\n",
                                  CONFIRM_DAYS)
                    % {"name": player.name, "days": CONFIRM_DAYS, "link": site_url(f"/accounts/confirm/{token}")})


def email_confirm(*, token: str, now: datetime) -> Player:
    """Confirm the address ``token`` was sent to; the account's player.

    Raises:
        Refused: bad_link (forged, expired, or an address the account has since replaced), email_taken
            (another account confirmed this address meanwhile).
    """
    try:
        data: dict[str, Any] = signing.loads(token, salt=_SALT)
        player_id, address, when = str(data["p"]), str(data["e"]), int(data["t"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise Refused("bad_link", gettext("This link is not valid: ask for a new one.")) from None
    if now - datetime.fromtimestamp(when, tz=UTC) > timedelta(days=CONFIRM_DAYS):
        raise Refused("bad_link", ngettext("This link has expired (it is valid %(days)d day): ask for a new one.",
                                           "This link has expired (it is valid %(days)d days): ask for a new one.",
                                           CONFIRM_DAYS) % {"days": CONFIRM_DAYS})
    try:
        with transaction.atomic():
            row = AccountEmail.objects.select_for_update(of=("self",)).select_related("player__user").filter(
                player_id=player_id, pending=address).first()
            if row is None or row.player.user is None:
                raise Refused("bad_link", gettext("This link is not valid any more: ask for a new one."))
            row.email, row.email_key, row.confirmed_at = address, email_key(address), now
            row.pending, row.pending_since = "", None
            row.save()
            # Django's own place for it: its reset tokens are bound to the address too.
            row.player.user.email = address
            row.player.user.save(update_fields=["email"])
    except IntegrityError:
        raise Refused("email_taken", gettext("Another account has confirmed this address meanwhile.")) from None
    log.info("email address confirmed", extra={"player": row.player_id})
    return row.player


def email_remove(*, player: Player) -> None:
    """Forget ``player``'s address, the confirmed one and any waiting for confirmation: no more emails (a
    reset link can no longer be sent, and one sent before stops working: it is bound to the address)."""
    with transaction.atomic():
        AccountEmail.objects.filter(player=player).delete()
        if player.user is not None and player.user.email:
            player.user.email = ""
            player.user.save(update_fields=["email"])
    log.info("email address removed", extra={"player": str(player.pk)})


def email_json(player: Player | None) -> dict[str, Any]:
    """``email`` (the one waiting for confirmation if any, else the confirmed one, else null) and
    ``email_confirmed``."""
    row = AccountEmail.objects.filter(player=player).first() if player is not None else None
    if row is None or not (row.pending or row.email):
        return {"email": None, "email_confirmed": False}
    if row.pending:
        return {"email": row.pending, "email_confirmed": False}
    return {"email": row.email, "email_confirmed": True}


def confirmed_email(player: Player) -> str | None:
    """The account's confirmed address, or None."""
    return AccountEmail.objects.filter(player=player, confirmed_at__isnull=False).values_list(
        "email", flat=True).first()
