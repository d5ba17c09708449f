"""REST endpoints of personal access tokens: make one (shown once), list them, revoke one.

Signed-in sessions only (cookie and CSRF token, the default authentication): a token cannot make or
revoke tokens. A refusal is raised and answered by the API's handler (``config.api``).
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import Refused
from common.iso import iso
from players.identity import session_player
from players.models import AccessToken, Player
from players.tokens import token_create, token_revoke, tokens_of


class TokenIn(serializers.Serializer[Any]):
    description = serializers.CharField(help_text="What the token is for (1 to 60 characters), e.g. the bot's name.")


class TokenOut(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    description = serializers.CharField()
    hint = serializers.CharField(help_text="The secret's last four characters.")
    created_at = serializers.DateTimeField()
    last_used_at = serializers.DateTimeField(allow_null=True, help_text="Updated at most once a minute.")


class NewTokenOut(TokenOut):
    token = serializers.CharField(help_text="The secret: shown this once. Send it as Authorization: Bearer <token>.")


def token_json(token: AccessToken) -> dict[str, Any]:
    return {"id": token.pk, "description": token.description, "hint": token.hint,
            "created_at": iso(token.created_at), "last_used_at": iso(token.last_used_at)}


def signed_in_account(request: Request) -> Player:
    """The session's account player.

    Raises:
        Refused(account_required): a guest, or no player.
    """
    player = session_player(request.session)
    if player is None or player.user_id is None:
        raise Refused("account_required", gettext("Sign in to an account first: tokens act for an account."))
    return player


class TokensView(APIView):
    @extend_schema(operation_id="accounts_tokens_list",
                   responses={200: TokenOut(many=True), 403: "account_required"})
    def get(self, request: Request) -> Response:
        """This account's live tokens, newest first (never their secrets)."""
        player = signed_in_account(request)
        return Response([token_json(token) for token in tokens_of(player)])

    @extend_schema(
        operation_id="accounts_tokens_create", request=TokenIn,
        responses={201: NewTokenOut, 400: "bad_description, too_many_tokens",
                   403: "account_required"},
    )
    def post(self, request: Request) -> Response:
        """A new token for this account. Its secret is in this answer only: it is stored hashed."""
        player = signed_in_account(request)
        data = request.data if isinstance(request.data, dict) else {}
        token, secret = token_create(player=player, description=data.get("description"), now=timezone.now())
        return Response({**token_json(token), "token": secret}, status=status.HTTP_201_CREATED)


class TokenView(APIView):
    @extend_schema(operation_id="accounts_tokens_revoke", request=None,
                   responses={204: None, 403: "account_required",
                              404: "not_found: no such token"})
    def delete(self, request: Request, token_id: str) -> Response:
        """Revoke a token of this account: every process refuses it from now on."""
        player = signed_in_account(request)
        token_revoke(player=player, token_id=token_id, now=timezone.now())
        return Response(status=status.HTTP_204_NO_CONTENT)
