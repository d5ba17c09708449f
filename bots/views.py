"""REST endpoints of the bot API (docs/bots.md): the bot upgrade, challenges, and a bot's move, chat and
resignation. Views only translate HTTP (a refusal is raised and answered by the API's handler, ``config.api``);
the streams are async views of their own (:mod:`bots.streams`).

The bot endpoints hear a personal access token only; the challenge endpoints hear a token or a signed-in
session (cookie and CSRF token), so a person challenges from a player page.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from bots import challenges, limits, play, protocol
from bots.accounts import bot_upgrade
from bots.models import ColourChoice
from common.errors import Refused
from common.params import query_int_or_none
from players.auth import BearerTokenAuthentication, DeviceSessionAuthentication
from players.identity import client_address, session_player
from players.models import AccessToken, Player

MAX_PLY = 64  # a full board


class ChallengeIn(serializers.Serializer[Any]):
    turn_seconds = serializers.IntegerField(required=False, allow_null=True,
                                            help_text="30 or 60 (a bot needs this or days_per_move); default 60.")
    days_per_move = serializers.IntegerField(required=False, allow_null=True,
                                             help_text="A correspondence game: 1, 2, 3, 5 or 7 (turn_seconds then "
                                                       "defaults to null).")
    ranked = serializers.BooleanField(required=False)
    colour = serializers.ChoiceField(choices=ColourChoice.choices, required=False)


def body(request: Request) -> dict[str, Any]:
    return request.data if isinstance(request.data, dict) else {}


def actor(request: Request) -> Player:
    """Who acts: the token's account, else the session's player.

    Raises:
        Refused(no_session): neither.
    """
    if isinstance(request.auth, AccessToken):
        return request.auth.player
    player = session_player(request.session)
    if player is None:
        raise Refused("no_session", gettext("Send a personal access token, or sign in."))
    return player


class TokenOnly(APIView):
    authentication_classes = [BearerTokenAuthentication]

    def token(self, request: Request) -> AccessToken:
        if not isinstance(request.auth, AccessToken):
            raise Refused("no_token", gettext("Send a personal access token: Authorization: Bearer <token>."))
        return request.auth


class TokenOrSession(TokenOnly):
    authentication_classes = [BearerTokenAuthentication, DeviceSessionAuthentication]


class UpgradeView(TokenOnly):
    @extend_schema(operation_id="bot_account_upgrade", request=None,
                   responses={200: None, 409: "already_bot, games_played"})
    def post(self, request: Request) -> Response:
        """Turn the token's account into a bot, for good (refused once it has played a game)."""
        player = bot_upgrade(player=self.token(request).player, now=timezone.now())
        return Response({"ok": True, "title": player.title})


class ChallengeCreateView(TokenOrSession):
    @extend_schema(operation_id="challenge_create", request=ChallengeIn,
                   responses={201: None, 400: "self_challenge, bad_rules, timer_required, too_many_challenges",
                              401: "no_session", 403: "banned", 404: "no_player", 409: "inbox_full",
                              429: "rate_limited"})
    def post(self, request: Request, username: str) -> Response:
        """Challenge the account ``username`` (a person or a bot) to a game with these rules."""
        data, now = body(request), timezone.now()
        challenge = challenges.challenge_create(
            challenger=actor(request), username=username,
            turn_seconds=data.get("turn_seconds", 60 if data.get("days_per_move") is None else None),
            days_per_move=data.get("days_per_move"),
            ranked=data.get("ranked", False), colour=data.get("colour", "random"), now=now,
            address=client_address(request),
        )
        return Response(challenges.challenge_out(challenge, now=now), status=201)


class ChallengeListView(TokenOrSession):
    @extend_schema(operation_id="challenge_list", responses={200: None})
    def get(self, request: Request) -> Response:
        """The challenges waiting for an answer that this account sent (``out``) or received (``in``)."""
        player, now = actor(request), timezone.now()
        rows = challenges.challenges_open(player=player, now=now)
        return Response({
            "in": [challenges.challenge_out(c, now=now) for c in rows if c.dest_id == player.pk],
            "out": [challenges.challenge_out(c, now=now) for c in rows if c.challenger_id == player.pk],
        })


class ChallengeView(TokenOrSession):
    @extend_schema(operation_id="challenge_show", responses={200: None, 404: "no_challenge"})
    def get(self, request: Request, challenge_id: str) -> Response:
        """A challenge this account sent or received: the page polls it for the room once it is accepted."""
        challenge = challenges.challenge_get(challenge_id=challenge_id, player=actor(request))
        return Response(challenges.challenge_out(challenge, now=timezone.now()))


class ChallengeActionView(TokenOrSession):
    action = ""

    def get_view_name(self) -> str:
        return f"challenge {self.action}"

    @extend_schema(request=None, responses={200: None, 400: "bad_reason, timer_required", 403: "not_yours, banned",
                                            404: "no_challenge", 409: "challenge_over", 429: "rate_limited"})
    def post(self, request: Request, challenge_id: str) -> Response:
        """Accept, decline (with a ``reason``) or cancel a challenge."""
        player, now = actor(request), timezone.now()
        if self.action == "accept":
            challenge = challenges.challenge_accept(challenge_id=challenge_id, player=player, now=now,
                                                    address=client_address(request))
        elif self.action == "decline":
            challenge = challenges.challenge_decline(challenge_id=challenge_id, player=player,
                                                     reason=body(request).get("reason", "generic"), now=now)
        else:
            challenge = challenges.challenge_cancel(challenge_id=challenge_id, player=player, now=now)
        return Response(challenges.challenge_out(challenge, now=now))


class MoveView(TokenOnly):
    @extend_schema(operation_id="bot_game_move", request=None,
                   parameters=[OpenApiParameter("ply", {"type": "integer", "minimum": 0, "maximum": MAX_PLY},
                                                description="The number of moves you saw (else stale).")],
                   responses={200: None, 400: "not_your_turn, peg_full, bad_peg, game_over, bad_ply",
                              403: "not_your_game", 404: "no_game", 409: "stale", 429: "rate_limited"})
    def post(self, request: Request, game_id: str, peg: str) -> Response:
        """Drop a bead on ``peg`` (``?ply=N``: only if the game is still at move N, else ``stale``)."""
        token, now = self.token(request), timezone.now()
        limits.move_quota_take(player_id=str(token.player_id), game_id=game_id, now=now)
        try:
            ply = query_int_or_none(request.query_params, "ply", low=0, high=MAX_PLY)
        except Refused:
            raise Refused("bad_ply", gettext("ply is the number of moves you saw, 0 to %(most)s.")
                          % {"most": MAX_PLY}) from None
        play.bot_move(game_id=game_id, player=token.player, peg=peg, ply=ply, now=now)
        return Response({"ok": True})


class DrawView(TokenOnly):
    @extend_schema(operation_id="bot_game_draw", request=None, parameters=[
        OpenApiParameter("answer", str, OpenApiParameter.PATH, enum=["yes", "no"])], responses={
        200: None, 400: "game_over, not_allowed, offer_limited", 403: "not_your_game", 404: "no_game, not_found",
        409: "no_offer"})
    def post(self, request: Request, game_id: str, answer: str) -> Response:
        """``yes``: offer a draw, or accept the opponent's offer; ``no``: decline it."""
        if answer not in ("yes", "no"):
            raise Refused("not_found", gettext("The answer is yes or no: /draw/yes or /draw/no."))
        play.bot_draw(game_id=game_id, player=self.token(request).player, yes=answer == "yes",
                      now=timezone.now())
        return Response({"ok": True})


class ChatView(TokenOnly):
    @extend_schema(operation_id="bot_game_chat", request=None, responses={
        200: None, 400: "bad_chat, not_allowed, empty, too_long", 403: "not_your_game",
        404: "no_game", 429: "rate_limited"})
    def post(self, request: Request, game_id: str) -> Response:
        """Write in the game room's ``player`` or ``spectator`` chat: ``{"room", "text"}``."""
        data = body(request)
        play.bot_chat(game_id=game_id, player=self.token(request).player, room=data.get("room"),
                      text=data.get("text"), now=timezone.now(), address=client_address(request))
        return Response({"ok": True})


class ResignView(TokenOnly):
    @extend_schema(operation_id="bot_game_resign", request=None, responses={
        200: None, 400: "game_over", 403: "not_your_game", 404: "no_game"})
    def post(self, request: Request, game_id: str) -> Response:
        """Resign the game."""
        play.bot_resign(game_id=game_id, player=self.token(request).player, now=timezone.now())
        return Response({"ok": True})


class AccountView(TokenOnly):
    @extend_schema(operation_id="bot_account", responses={200: None, 401: "no_token, bad_token"})
    def get(self, request: Request) -> Response:
        """Whose token this is: id, name, username, title."""
        player = self.token(request).player
        return Response(protocol.player_json(player, username=challenges.username_of(player)))
