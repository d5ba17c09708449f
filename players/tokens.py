"""Personal access tokens: an account's credentials for scripts and bots.

A token is made by its account (signed in with its session), shown once, stored as the SHA-256 of its
secret, listed by description and last characters, and revoked for good. It is sent as
``Authorization: Bearer <secret>``; only the endpoints that accept :class:`players.auth.BearerTokenAuthentication`
(the bot and challenge endpoints) hear it: everywhere else a request with a token is a device without a
session. Services take ``now``; only the edges read the clock. The layers above hear of a revocation
through :data:`TOKEN_REVOKED` (the bot API ends the streams open with the token).
"""

from __future__ import annotations

import hashlib
import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils.translation import gettext

from common.errors import Refused
from common.hooks import Hook, OnError, Runs
from players.models import AccessToken, Player

PREFIX = "f4r_"  # recognisable in a leaked log or a secret scanner
MAX_LIVE_TOKENS = 20
DESCRIPTION_MAX = 60
# ``last_used_at`` is written at most this often per token: a bot's every move must not write it.
USE_RECORDED_EVERY = timedelta(minutes=1)


@dataclass(frozen=True, slots=True)
class TokenRevoked:
    """A token just revoked: its id and its account's player id."""

    token_id: int
    player_id: uuid.UUID


# Once the revocation has committed; a handler's error is logged, the revocation stands.
TOKEN_REVOKED: Hook[TokenRevoked] = Hook("token revoked", runs=Runs.AFTER_COMMIT, on_error=OnError.CONTAIN,
                                         defer=transaction.on_commit)


def digest_of(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def bearer_secret(header: str | None) -> str | None:
    """The secret of an ``Authorization: Bearer <secret>`` header; None without one (another scheme, none).

    A header that says Bearer but carries nothing is an empty secret (refused like a wrong one)."""
    if not header:
        return None
    scheme, _, secret = header.strip().partition(" ")
    return secret.strip() if scheme.lower() == "bearer" else None


def token_create(*, player: Player, description: object, now: datetime) -> tuple[AccessToken, str]:
    """A new token of ``player``'s account; returns it and its secret (shown this once, never stored).

    Raises:
        Refused: account_required (a guest has no account to act for), bad_description (not 1 to 60
            characters), too_many_tokens (``MAX_LIVE_TOKENS`` live tokens already).
    """
    if player.user_id is None:
        raise Refused("account_required", gettext("Register an account first: tokens act for an account."))
    text = " ".join(description.split()) if isinstance(description, str) else ""
    if not 1 <= len(text) <= DESCRIPTION_MAX:
        raise Refused("bad_description", gettext("Describe the token in 1 to %(most)s characters.")
                      % {"most": DESCRIPTION_MAX})
    with transaction.atomic():
        list(Player.objects.select_for_update().filter(pk=player.pk).values_list("pk", flat=True))  # counted once
        if AccessToken.objects.filter(player=player, revoked_at=None).count() >= MAX_LIVE_TOKENS:
            raise Refused("too_many_tokens", gettext("An account has at most %(most)s tokens: revoke one first.")
                          % {"most": MAX_LIVE_TOKENS})
        secret = PREFIX + secrets.token_urlsafe(32)
        token = AccessToken.objects.create(
            player=player, description=text, digest=digest_of(secret), hint=secret[-4:], created_at=now
        )
    return token, secret


def tokens_of(player: Player) -> list[AccessToken]:
    """``player``'s live tokens, newest first."""
    return list(AccessToken.objects.filter(player=player, revoked_at=None).order_by("-created_at", "-pk"))


def token_revoke(*, player: Player, token_id: object, now: datetime) -> None:
    """Revoke one of ``player``'s tokens: it is refused from now on, by every process.

    Raises:
        Refused(not_found): ``player`` has no live token with this id.
    """
    try:
        pk = int(str(token_id))
    except ValueError:
        pk = -1
    if not AccessToken.objects.filter(pk=pk, player=player, revoked_at=None).update(revoked_at=now):
        raise Refused("not_found", gettext("There is no such token."))
    TOKEN_REVOKED.emit(TokenRevoked(token_id=pk, player_id=player.pk))


def token_is_live(token_id: int) -> bool:
    """Whether the token is still accepted: not revoked, of an account, the account not banned."""
    return AccessToken.objects.filter(pk=token_id, revoked_at=None, player__user__isnull=False,
                                      player__banned_at=None).exists()


def token_authenticate(secret: str, *, now: datetime) -> AccessToken:
    """The live token whose secret this is, with its player.

    Raises:
        Refused: bad_token (unknown, revoked, or its player is not an account any more), banned.
    """
    token = (
        AccessToken.objects.select_related("player").filter(digest=digest_of(secret), revoked_at=None).first()
        if secret else None
    )
    if token is None or token.player.user_id is None:
        raise Refused("bad_token", gettext("This access token is unknown or was revoked."))
    if token.player.is_banned:
        raise Refused("banned", gettext("This account is banned by a moderator."))
    if token.last_used_at is None or now - token.last_used_at >= USE_RECORDED_EVERY:
        AccessToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token
