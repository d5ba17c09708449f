"""REST endpoints of arenas (docs/protocol.md, "Arenas"). Views only translate HTTP; a refusal is raised and
answered by the API's handler (``config.api``)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import Refused
from common.params import MAX_OFFSET, query_int
from players.identity import client_address, session_player
from tournaments.limits import arena_action_quota_take
from tournaments.models import ArenaStatus
from tournaments.selectors import arena_games, arena_view, arenas_list
from tournaments.services import arena_create, arena_join, arena_pause, arena_spec_from, arena_withdraw

MAX_PAGE = 10_000  # of the standings (a page past the last shows the last)


def _instant(text: str) -> datetime | None:
    """``text`` as an aware instant in UTC; None if it is not an ISO-8601 instant with its offset.

    In UTC because an offset is any up to ±23:59 here and PostgreSQL refuses one past ±15:59; the
    instant is the same.
    """
    try:
        moment = parse_datetime(text)
        return None if moment is None or moment.tzinfo is None else moment.astimezone(UTC)
    except (ValueError, OverflowError):  # not one; or its UTC instant falls outside years 1 to 9999
        return None


def _arena_out(arena_id: int, request: Request, *, page: int = 1) -> Response:
    view = arena_view(arena_id, page=page)
    if view is None:
        raise Refused("not_found", gettext("There is no such arena."))
    player = session_player(request.session)
    return Response(view.for_player(str(player.pk) if player else None))


class ArenaIn(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=60)
    starts_at = serializers.DateTimeField(allow_null=True, required=False, help_text="null or absent: now")
    minutes = serializers.IntegerField(min_value=10, max_value=180)
    turn_seconds = serializers.ChoiceField(choices=[30, 60])
    ranked = serializers.BooleanField(default=True)
    berserk = serializers.BooleanField(default=False)


class ArenasQuery(serializers.Serializer[Any]):
    status = serializers.ChoiceField(choices=ArenaStatus.values, required=False)
    limit = serializers.IntegerField(required=False, default=20, min_value=1, max_value=100)
    offset = serializers.IntegerField(required=False, default=0, min_value=0, max_value=MAX_OFFSET)


class ArenasView(APIView):
    @extend_schema(
        operation_id="tournaments_create", request=ArenaIn,
        responses={
            201: OpenApiResponse(description="the arena (as GET /api/tournaments/{id})"),
            400: "bad_request",
            403: "no_account (log in first), banned, bot_account",
            429: "rate_limited: 3 arenas a day (see Retry-After)",
        },
    )
    def post(self, request: Request) -> Response:
        """Create an arena (an account, at most 3 a day); ``starts_at`` null: it starts now."""
        now = timezone.now()
        spec = arena_spec_from(request.data, parse_instant=_instant)
        arena = arena_create(spec=spec, player=session_player(request.session), now=now)
        response = _arena_out(arena.pk, request)
        response.status_code = status.HTTP_201_CREATED
        return response

    @extend_schema(operation_id="tournaments_list", parameters=[ArenasQuery], responses={200: None, 400: "bad_request"})
    def get(self, request: Request) -> Response:
        """Arenas: running (ending soonest first), upcoming (starting soonest first), then finished; paged."""
        query = ArenasQuery(data=request.query_params)
        query.is_valid(raise_exception=True)  # else 400 bad_request
        return Response(arenas_list(now=timezone.now(), **query.validated_data))


class ArenaDetailView(APIView):
    @extend_schema(
        operation_id="tournaments_retrieve",
        parameters=[OpenApiParameter("page", {"type": "integer", "minimum": 1, "maximum": MAX_PAGE},
                                     description="The standings' page (20 rows each), from 1.")],
        responses={200: OpenApiResponse(description="the arena"), 400: "bad_request",
                   404: "not_found"},
    )
    def get(self, request: Request, arena_id: int) -> Response:
        """The arena, a page of its standings, your own row (``me``) and, once finished, the podium."""
        page = query_int(request.query_params, "page", default=1, low=1, high=MAX_PAGE)
        return _arena_out(arena_id, request, page=page)


class ArenaGamesView(APIView):
    @extend_schema(operation_id="tournaments_games", responses={200: None, 404: "not_found"})
    def get(self, request: Request, arena_id: int) -> Response:
        """Every finished game of the arena, in the order they ended, with the points each side scored."""
        games = arena_games(arena_id)
        if games is None:
            raise Refused("not_found", gettext("There is no such arena."))
        return Response(games)


class ArenaActionView(APIView):
    """``POST /api/tournaments/{id}/join``, ``/pause``, ``/withdraw``: the device's player."""

    action = ""
    ACTIONS = {"join": arena_join, "pause": arena_pause, "withdraw": arena_withdraw}

    @extend_schema(
        request=None,
        responses={
            200: OpenApiResponse(description="the arena as you see it now"),
            403: "no_account: this device has no player yet; banned; bot_account",
            404: "not_found",
            409: "finished, not_joined",
            429: "rate_limited (past 20 a minute per player or 120 per client address)",
        },
    )
    def post(self, request: Request, arena_id: int) -> Response:
        player = session_player(request.session)
        if player is None:
            raise Refused("no_account", gettext("Choose a name first: this device has no player yet."))
        now = timezone.now()
        arena_action_quota_take(player_id=str(player.pk), address=client_address(request), now=now)
        self.ACTIONS[self.action](arena_id=arena_id, player=player, now=now)
        return _arena_out(arena_id, request)
