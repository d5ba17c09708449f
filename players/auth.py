"""REST authentication: the session cookie identifies the device, and every write carries a CSRF token;
the bot and challenge endpoints also hear a personal access token.

DRF's own SessionAuthentication checks CSRF only for logged-in users; guests write too (create rooms,
rename themselves), so this class checks it on every unsafe request.
"""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.utils import timezone
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, SessionAuthentication
from rest_framework.request import Request

from common.errors import Refused, status_for
from players.models import AccessToken
from players.tokens import bearer_secret, token_authenticate


class DeviceSessionAuthentication(SessionAuthentication):
    def authenticate(self, request: Request) -> tuple[AbstractBaseUser, None] | None:
        self.enforce_csrf(request)
        return super().authenticate(request)


class BearerTokenAuthentication(BaseAuthentication):
    """``Authorization: Bearer <token>`` (a personal access token, :mod:`players.tokens`). Only the bot and
    challenge endpoints list it: anywhere else a token is not heard. No CSRF check: a token is never sent
    by a browser on its own.

    The request's ``auth`` is the :class:`~players.models.AccessToken` (its ``player`` acts).
    """

    def authenticate(self, request: Request) -> tuple[AbstractBaseUser | None, AccessToken] | None:
        secret = bearer_secret(request.META.get("HTTP_AUTHORIZATION"))
        if secret is None:
            return None
        try:
            token = token_authenticate(secret, now=timezone.now())
        except Refused as exc:  # bad_token: who asks is unknown (401, with WWW-Authenticate); banned: 403
            if status_for(exc.code) == exceptions.AuthenticationFailed.status_code:
                raise exceptions.AuthenticationFailed(exc.message, code=exc.code) from None
            raise exceptions.PermissionDenied(exc.message, code=exc.code) from None
        return token.player.user, token

    def authenticate_header(self, request: Request) -> str:
        return 'Bearer realm="api"'
