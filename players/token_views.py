"""REST endpoints of personal access tokens: make one (shown once), list them, revoke one.

Signed-in sessions only (cookie and CSRF token, the default authentication): a token cannot make or
revoke tokens.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import Refused
from common.iso import iso
from players.identity import session_player
from players.models import AccessToken
from players.tokens import token_create, token_revoke, tokens_of
from players.views import AccountErrorOut, refusal


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


def _account_refusal() -> Response:
    return refusal(Refused("account_required", "Sign in to an account first: tokens act for an account."))


class TokensView(APIView):
    @extend_schema(operation_id="accounts_tokens_list", responses={200: TokenOut(many=True), 403: AccountErrorOut})
    def get(self, request: Request) -> Response:
        """This account's live tokens, newest first (never their secrets)."""
        player = session_player(request.session)
        if player is None or player.user_id is None:
            return _account_refusal()
        return Response([token_json(token) for token in tokens_of(player)])

    @extend_schema(
        operation_id="accounts_tokens_create", request=TokenIn,
        responses={201: NewTokenOut, 400: OpenApiResponse(AccountErrorOut, description="bad_description, "
                                                         "too_many_tokens"), 403: AccountErrorOut},
    )
    def post(self, request: Request) -> Response:
        """A new token for this account. Its secret is in this answer only: it is stored hashed."""
        player = session_player(request.session)
        if player is None or player.user_id is None:
            return _account_refusal()
        data = request.data if isinstance(request.data, dict) else {}
        try:
            token, secret = token_create(player=player, description=data.get("description"), now=timezone.now())
        except Refused as exc:
            return refusal(exc)
        return Response({**token_json(token), "token": secret}, status=status.HTTP_201_CREATED)


class TokenView(APIView):
    @extend_schema(operation_id="accounts_tokens_revoke", request=None,
                   responses={204: None, 403: AccountErrorOut, 404: AccountErrorOut})
    def delete(self, request: Request, token_id: str) -> Response:
        """Revoke a token of this account: every process refuses it from now on."""
        player = session_player(request.session)
        if player is None or player.user_id is None:
            return _account_refusal()
        try:
            token_revoke(player=player, token_id=token_id, now=timezone.now())
        except Refused as exc:
            return refusal(exc)
        return Response(status=status.HTTP_204_NO_CONTENT)
