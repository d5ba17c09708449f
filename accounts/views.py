"""REST endpoints of an account's email address, password reset, and closing the account. Views only
translate HTTP; a refusal is raised and answered by the API's handler (``config.api``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from django.contrib.auth import update_session_auth_hash
from django.http import HttpRequest, HttpResponseBase, StreamingHttpResponse
from django.utils import timezone
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.address import email_add, email_json, email_remove
from accounts.deletion import account_delete
from accounts.export import SECTIONS, export_head, export_page
from accounts.notices import preferences, preferences_set
from accounts.reset import RESET_SENT, password_change, reset_confirm, reset_request
from common.errors import Refused
from live.offload import offload
from players import views as player_views
from players.identity import client_address, session_player
from players.models import Player


def _data(request: Request) -> dict[str, Any]:
    return request.data if isinstance(request.data, dict) else {}


def _account(request: Request) -> Player:
    player = session_player(request.session)
    if player is None or player.user_id is None:
        raise Refused("no_account", gettext("Sign in to an account first."))
    return player


class EmailIn(serializers.Serializer[Any]):
    email = serializers.EmailField()


class EmailOut(serializers.Serializer[Any]):
    email = serializers.EmailField(allow_null=True, help_text="Waiting for confirmation if email_confirmed is false.")
    email_confirmed = serializers.BooleanField()


class NotificationsIn(serializers.Serializer[Any]):
    challenge = serializers.BooleanField(required=False)
    your_turn = serializers.BooleanField(required=False)
    time_running_out = serializers.BooleanField(required=False)
    game_over = serializers.BooleanField(required=False)


class MeOut(player_views.AccountOut, EmailOut):
    email_notifications = NotificationsIn(help_text="The notification kinds emailed to the confirmed address.")


class MeIn(serializers.Serializer[Any]):
    email_notifications = NotificationsIn()


class ResetIn(serializers.Serializer[Any]):
    username = serializers.CharField(required=False)
    email = serializers.EmailField(required=False)


class ResetConfirmIn(serializers.Serializer[Any]):
    token = serializers.CharField(help_text="From the link in the reset email.")
    password = serializers.CharField()


class PasswordIn(serializers.Serializer[Any]):
    password = serializers.CharField()


def _me_json(player: Player | None) -> dict[str, Any]:
    return {**player_views.account_json(player), **email_json(player), "email_notifications": preferences(player)}


class EmailView(APIView):
    @extend_schema(operation_id="accounts_email", request=EmailIn,
                   responses={202: EmailOut, 400: "bad_email", 403: "no_account", 429: "rate_limited"})
    def post(self, request: Request) -> Response:
        """Send a confirmation link (valid 3 days) to this address; the account's confirmed address, if any,
        stays until the link is followed."""
        player = _account(request)
        email_add(player=player, address=_data(request).get("email"), client=client_address(request),
                  now=timezone.now())
        return Response(email_json(player), status=status.HTTP_202_ACCEPTED)

    @extend_schema(operation_id="accounts_email_remove", responses={200: EmailOut, 403: "no_account"})
    def delete(self, request: Request) -> Response:
        """Remove the account's address (confirmed or waiting): no email is sent to it any more."""
        player = _account(request)
        email_remove(player=player)
        return Response(email_json(player))


class PasswordChangeIn(serializers.Serializer[Any]):
    current = serializers.CharField(help_text="The account's password now.")
    password = serializers.CharField(help_text="The new one.")


class PasswordView(APIView):
    @extend_schema(operation_id="accounts_password_change", request=PasswordChangeIn,
                   responses={204: None, 400: "weak_password", 401: "bad_credentials", 403: "no_account",
                              429: "rate_limited"})
    def post(self, request: Request) -> Response:
        """Change the password: this device stays signed in, the account's other devices are signed out."""
        player = _account(request)
        data = _data(request)
        password_change(player=player, current=data.get("current"), password=data.get("password"),
                        address=client_address(request), now=timezone.now())
        assert player.user is not None
        update_session_auth_hash(request, player.user)  # this session stays signed in
        return Response(status=status.HTTP_204_NO_CONTENT)


class ResetView(APIView):
    @extend_schema(operation_id="accounts_password_reset", request=ResetIn,
                   responses={202: dict, 429: "rate_limited"})
    def post(self, request: Request) -> Response:
        """Send a reset link to the confirmed address of the account named by ``username`` or ``email``.
        The answer is the same whether or not there is one."""
        data = _data(request)
        reset_request(username=data.get("username"), email=data.get("email"), client=client_address(request),
                      now=timezone.now())
        return Response({"detail": str(RESET_SENT)}, status=status.HTTP_202_ACCEPTED)


class ResetConfirmView(APIView):
    @extend_schema(operation_id="accounts_password_reset_confirm", request=ResetConfirmIn,
                   responses={200: dict, 400: "bad_link, weak_password"})
    def post(self, request: Request) -> Response:
        """Set the account's new password; every session of the account ends (log in again)."""
        data = _data(request)
        player = reset_confirm(token=data.get("token"), password=data.get("password"), now=timezone.now())
        assert player.user is not None
        return Response({"username": player.user.username})


class MeView(player_views.MeView):
    @extend_schema(operation_id="accounts_me", responses={200: MeOut})
    def get(self, request: Request) -> Response:
        """This device's player and, if it has one, its account's username, email address and whether it is
        confirmed."""
        return Response(_me_json(session_player(request.session)))

    @extend_schema(operation_id="accounts_me_update", request=MeIn,
                   responses={200: MeOut, 400: "bad_request", 403: "no_account"})
    def patch(self, request: Request) -> Response:
        """Choose which notification kinds are emailed (the kinds not named stay as they were)."""
        player = _account(request)
        preferences_set(player=player, choices=_data(request).get("email_notifications"))
        return Response(_me_json(player))

    @extend_schema(operation_id="accounts_delete", request=PasswordIn,
                   responses={204: None, 401: "bad_credentials", 403: "no_account"})
    def delete(self, request: Request) -> Response:
        """Close the account (the password confirms it): see docs/protocol.md for what is erased and kept."""
        account_delete(player=_account(request), password=_data(request).get("password"), now=timezone.now())
        request.session.flush()
        return Response(status=status.HTTP_204_NO_CONTENT)


async def export(request: HttpRequest) -> HttpResponseBase:
    """``GET /api/accounts/me/export``: everything kept about this device's account, one JSON document
    streamed a page of rows at a time (``accounts.export``); 403 ``no_account`` without an account.

    Raises:
        Refused: method_not_allowed, no_account (``config.api`` answers them).
    """
    if request.method != "GET":
        raise Refused("method_not_allowed", gettext("Only GET is allowed here."))
    player = await offload(session_player, lane="request")(request.session)
    if player is None or player.user_id is None:
        raise Refused("no_account", gettext("Sign in to an account first."))
    head = await offload(export_head)(player, now=timezone.now())

    async def body() -> AsyncIterator[str]:
        yield head
        for section in SECTIONS:
            yield f', "{section.name}": ['
            after, separator = None, ""
            while True:
                texts, after = await offload(export_page)(section, player, after=after)
                for text in texts:
                    yield separator + text
                    separator = ", "
                if after is None:
                    break
            yield "]"
        yield "}\n"

    response = StreamingHttpResponse(body(), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="fourinarow3d-{player.pk}.json"'
    response["X-Accel-Buffering"] = "no"
    return response
