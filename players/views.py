"""REST endpoints of accounts and the session: register, log in, log out, and who this device is (its
player, ``/api/session``: ``players.session``). Views only translate HTTP; a refusal is raised and answered
by the API's handler (``config.api``).

Every write needs the CSRF token (``players.auth.DeviceSessionAuthentication`` checks it on every unsafe
request, signed in or not).
"""

from __future__ import annotations

from typing import Any

from django.middleware.csrf import get_token
from django.utils import timezone
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import Refused
from players.accounts import (
    account_login,
    account_register,
    registration_quota_take,
    session_sign_in,
    session_sign_out,
)
from players.identity import client_address, session_attach, session_player
from players.language import device_language
from players.limits import guest_create_quota_take
from players.models import Player
from players.preferences import language_keep, preferences_change, preferences_of
from players.selectors import player_json
from players.services import clean_player_name, player_create, player_rename
from players.session import SESSION_PARTS, in_order, session_json


class PlayerRefOut(serializers.Serializer[Any]):
    id = serializers.UUIDField()
    name = serializers.CharField()
    title = serializers.CharField(required=False, help_text='"BOT" for a bot account; absent for people.')


class SessionIn(serializers.Serializer[Any]):
    name = serializers.CharField(required=False, allow_blank=True, max_length=200,
                                 help_text='Omitted for a new guest: "Guest" and four hex digits of its id.')


# The player's own fields, and the parts the layers above add (players.session.SESSION_PARTS); no docstring:
# it would be the schema's description of the answer.
class SessionOut(serializers.Serializer[Any]):
    player = PlayerRefOut(allow_null=True, help_text="The device's player; null before it has one.")
    username = serializers.CharField(allow_null=True, help_text="The account's username; null for a guest.")

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return in_order(super().get_fields(), ((part.key, part.after, part.field()) for part in SESSION_PARTS))


class SessionView(APIView):
    """The device's player. GET also hands out the ``csrftoken`` cookie that writes need."""

    @extend_schema(responses={200: SessionOut})
    def get(self, request: Request) -> Response:
        """This device's player, rating, account and rooms; ``player`` is null before it has one."""
        get_token(request)
        return Response(session_json(session_player(request.session)))

    @extend_schema(request=SessionIn, responses={200: SessionOut, 201: SessionOut})
    def post(self, request: Request) -> Response:
        if not isinstance(request.data, dict):
            raise Refused("bad_request", gettext('Send {"name": "..."}.'))
        name = request.data.get("name")
        existing = session_player(request.session)
        if existing is None:
            now = timezone.now()
            if name is not None:
                clean_player_name(name)  # a refused name counts no guest against the address
            guest_create_quota_take(address=client_address(request), now=now)
            player = player_create(name=name, now=now)
            session_attach(request.session, player)
            code: int = status.HTTP_201_CREATED
        else:
            player = existing if name is None else player_rename(player=existing, name=name)
            code = status.HTTP_200_OK
        get_token(request)
        return Response(session_json(player, new=existing is None), status=code)


class CredentialsIn(serializers.Serializer[Any]):
    username = serializers.CharField(help_text="3 to 24 letters, digits, dots, dashes or underscores.")
    password = serializers.CharField(help_text="Checked by Django's password validators on register.")


class AccountPlayerOut(serializers.Serializer[Any]):
    id = serializers.UUIDField()
    name = serializers.CharField()


class AccountOut(serializers.Serializer[Any]):
    player = AccountPlayerOut(allow_null=True, help_text="The device's player (null after logout).")
    username = serializers.CharField(allow_null=True, help_text="The account's username; null for a guest.")


def account_json(player: Player | None) -> dict[str, Any]:
    username = player.user.username if player is not None and player.user is not None else None
    return {"player": player_json(player), "username": username}


def credentials(request: Request) -> tuple[object, object]:
    data = request.data if isinstance(request.data, dict) else {}
    return data.get("username"), data.get("password")


class RegisterView(APIView):
    @extend_schema(
        operation_id="accounts_register",
        request=CredentialsIn,
        responses={
            201: AccountOut,
            400: "bad_username, weak_password",
            409: "name_taken, already_registered",
            429: "rate_limited: 5 a minute and 300 a day per address by default (see Retry-After)",
        },
    )
    def post(self, request: Request) -> Response:
        """Turn this device's player into an account (rating and history kept), and sign the device in.

        A device without a player gets a new one named after the username.
        """
        username, password = credentials(request)
        registration_quota_take(address=client_address(request), now=timezone.now())
        player = account_register(
            player=session_player(request.session), username=username, password=password, now=timezone.now()
        )
        language_keep(player=player, language=device_language(request), now=timezone.now())
        session_sign_in(request, player)
        return Response(account_json(player), status=status.HTTP_201_CREATED)


class LoginView(APIView):
    @extend_schema(
        operation_id="accounts_login",
        request=CredentialsIn,
        responses={
            200: AccountOut,
            401: "bad_credentials",
            429: "rate_limited (see the Retry-After header)",
        },
    )
    def post(self, request: Request) -> Response:
        """Bring the account's player to this device. The session key and CSRF token change.

        If the device's player was a guest, its unfinished rooms are handed over to the account (its
        seats, its game being played, the rooms it hosts); a room where the account already sits is
        closed instead, its game abandoned.
        """
        username, password = credentials(request)
        player = account_login(
            username=username, password=password, address=client_address(request), now=timezone.now(),
            guest=session_player(request.session),
        )
        session_sign_in(request, player)
        return Response(account_json(player))


class LogoutView(APIView):
    @extend_schema(
        operation_id="accounts_logout",
        request=None,
        responses={200: AccountOut, 409: "guest_player"},
    )
    def post(self, request: Request) -> Response:
        """Forget this device's session: it has no player until it makes a guest or logs in again.

        A guest player (no account) cannot be logged out: nothing could ever bring it back.
        """
        session_sign_out(request)
        get_token(request)
        return Response(account_json(None))


class MeView(APIView):
    @extend_schema(operation_id="accounts_me", responses={200: AccountOut})
    def get(self, request: Request) -> Response:
        """This device's player and, if it has one, its account's username."""
        return Response(account_json(session_player(request.session)))


class PreferencesView(APIView):
    @extend_schema(operation_id="preferences", responses={200: None})
    def get(self, request: Request) -> Response:
        """This device's player's preferences (the defaults before the device has a player)."""
        return Response(preferences_of(session_player(request.session)))

    @extend_schema(operation_id="preferences_change", request=None,
                   responses={200: None, 400: "bad_request", 404: "no_player"})
    def patch(self, request: Request) -> Response:
        """Change some preferences: ``{"theme": "dark", "volume": 40}``; answers all of them."""
        player = session_player(request.session)
        if player is None:
            raise Refused("no_player", gettext("This device has no player yet: choose a name first."))
        return Response(preferences_change(player=player, changes=request.data, now=timezone.now()))
