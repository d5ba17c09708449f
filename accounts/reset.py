"""Password reset: a link to the account's confirmed address, made and checked by Django's
``PasswordResetTokenGenerator`` (valid ``PASSWORD_RESET_TIMEOUT`` seconds, and only until the password or
the address changes or the account logs in: a used link is refused).

The request always answers the same, whether or not the account exists or has a confirmed address, and
both paths do the same work but the outbox row; its limits are counted per client address and per name
asked for (existing or not), so a limit tells nothing either. Setting the new password ends every session
of the account (:func:`players.identity.session_player` drops a session whose password hash is stale),
and leaves the access tokens alone.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.cache import cache
from django.db import transaction
from django.utils import translation
from django.utils.encoding import force_str
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode
from django.utils.translation import gettext, gettext_lazy, ngettext

from accounts.address import email_key, site_url
from accounts.models import AccountEmail
from common.errors import Refused
from common.ratelimit import Quota, quota_take
from mail.outbox import email_queue
from players.accounts import clean_password, login_failure_count, login_throttle_check, username_key
from players.language import stored_language
from players.models import Player
from players.services import EndedBy, player_sessions_end

log = logging.getLogger(__name__)

# The answer to every reset request, whether the account exists or not (nothing tells who has one).
RESET_SENT = gettext_lazy("If that account has a confirmed email address, a reset link is on its way to it.")


class ClockedTokenGenerator(PasswordResetTokenGenerator):
    """Django's generator, reading the time from the caller's ``now`` rather than the clock."""

    def __init__(self, now: datetime) -> None:
        super().__init__()
        self._at = now.astimezone(UTC).replace(tzinfo=None)  # Django's generator counts naive UTC seconds

    def _now(self) -> datetime:
        return self._at


def _quotas() -> tuple[Quota, Quota]:
    return (Quota("reset-account", settings.PASSWORD_RESETS_PER_HOUR_PER_ACCOUNT, 3600),
            Quota("reset-address", settings.PASSWORD_RESETS_PER_HOUR_PER_ADDRESS, 3600))


def _account_of(username: object, email: object) -> tuple[str, User | None, str | None]:
    """(the name asked for, in its compared form; the account's user, or None; its confirmed address)."""
    if isinstance(email, str) and email.strip():
        key = "email:" + email_key(email)
        row = AccountEmail.objects.select_related("player__user").filter(
            email_key=email_key(email), confirmed_at__isnull=False).first()
        player = row.player if row is not None else None
    else:
        name = username_key(username.strip()) if isinstance(username, str) else ""
        key = "name:" + name
        player = Player.objects.select_related("user").filter(username_key=name).first() if name else None
    user = player.user if player is not None else None
    if user is None or not user.is_active:
        return key, None, None
    address = AccountEmail.objects.filter(player=player, confirmed_at__isnull=False).values_list(
        "email", flat=True).first()
    return key, user, address


def reset_request(*, username: object, email: object, client: str, now: datetime) -> None:
    """Send a reset link to the confirmed address of the account named by ``username`` or ``email``, if
    there is one. Returns nothing either way.

    Raises:
        Refused(rate_limited): too many requests for this name or from this address (counted whether the
            account exists or not).
    """
    key, user, address = _account_of(username, email)
    account_quota, address_quota = _quotas()
    quota_take(cache, [(account_quota, key), (address_quota, client)], now=now,
               message=gettext("Too many password reset requests."))
    # A token is made on both paths, so the time taken tells little.
    generator = ClockedTokenGenerator(now)
    token = generator.make_token(user if user is not None else User(password="!", username=key))
    if user is None or address is None:
        return
    link = site_url(f"/accounts/reset/{urlsafe_base64_encode(str(user.pk).encode())}.{token}")
    hours = settings.PASSWORD_RESET_TIMEOUT // 3600
    # To the account's owner, who may not be the one asking: their language, else the asker's.
    with translation.override(stored_language(user.player.pk) or translation.get_language()):
        email_queue(to=address, kind="reset", now=now, subject=gettext("3D Four in a Row: reset your password"),
                    body=ngettext("Hello %(name)s,\n\nsomeone (you, we hope) asked to reset the password of your "
                                  "account. Follow this link within %(hours)d hour to choose a new one:\n\n"
                                  "%(link)s\n\nIf you did not ask for it, ignore this email: your password stays as "
                                  "it is.\n",
                                  "Hello %(name)s,\n\nsomeone (you, we hope) asked to reset the password of your "
                                  "account. Follow this link within %(hours)d hours to choose a new one:\n\n"
                                  "%(link)s\n\nIf you did not ask for it, ignore this email: your password stays as "
                                  "it is.\n", hours)
                    % {"name": user.username, "hours": hours, "link": link})
    log.info("password reset link queued", extra={"player": str(user.player.pk)})


def password_change(*, player: Player, current: object, password: object, address: str, now: datetime) -> None:
    """Set the signed-in account's new password, its ``current`` one confirming it (a wrong one counts as
    a failed login, with its limits); the account's other sessions end, the caller keeps its own, and every
    open socket of the account is closed (4409: the caller's pages reconnect as the account).

    Raises:
        Refused: no_account, bad_credentials, weak_password; RateLimited: too many wrong passwords.
    """
    user = player.user
    if user is None:
        raise Refused("no_account", gettext("Sign in to an account first."))
    login_throttle_check(user.username, address, now=now)
    if not isinstance(current, str) or not user.check_password(current):
        login_failure_count(user.username, address, now=now)
        raise Refused("bad_credentials", gettext("Your current password is not right."))
    user.set_password(clean_password(password, username=user.username))
    with transaction.atomic():
        user.save(update_fields=["password"])
        # Every open socket and stream of the account, on every process: 4409, each page reconnects as
        # whoever its session now is (the caller's own, kept, is the account still).
        player_sessions_end(player=player, by=EndedBy.PASSWORD, now=now, message=gettext(
            "The password of this account was changed: log in again."))
    log.info("password changed", extra={"player": str(player.pk)})


def reset_confirm(*, token: object, password: object, now: datetime) -> Player:
    """Set the password of the account ``token`` was made for; every session and open socket of the account
    ends.

    Raises:
        Refused: bad_link (forged, expired or already used), weak_password.
    """
    refused = Refused("bad_link", gettext("This reset link is not valid (expired or used): ask for a new one."))
    uid, _, secret = token.partition(".") if isinstance(token, str) else ("", "", "")
    try:
        user = User.objects.select_related("player").filter(pk=int(force_str(urlsafe_base64_decode(uid)))).first()
    except (ValueError, TypeError, OverflowError):
        raise refused from None
    if user is None or not user.is_active or not ClockedTokenGenerator(now).check_token(user, secret):
        raise refused
    user.set_password(clean_password(password, username=user.username))
    with transaction.atomic():
        user.save(update_fields=["password"])
        # Every open socket and stream of the account too, on every process (a session thief's among them):
        # 4409, the page reconnects as whoever its session now is.
        player_sessions_end(player=user.player, by=EndedBy.RESET, now=now, message=gettext(
            "The password of this account was reset: log in again."))
    log.info("password reset", extra={"player": str(user.player.pk)})
    return user.player
