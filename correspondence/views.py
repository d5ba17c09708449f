"""REST endpoints of correspondence play (docs/protocol.md): the seeks, and a player's games. Views only
translate HTTP; a refusal is raised and answered by the API's handler (``config.api``)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.params import query_int
from correspondence.selectors import my_games, seeks_json, seeks_page
from correspondence.services import seek_accept, seek_create, seek_delete
from lobby.rooms.selectors import snapshot_of
from players.identity import client_address, session_player

# Pages of open seeks served at most (20 a page).
MAX_PAGE = 50


class SeekIn(serializers.Serializer[Any]):
    days_per_move = serializers.IntegerField(help_text="1, 2, 3, 5 or 7.")
    ranked = serializers.BooleanField()


class SeekOut(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    player = serializers.DictField(help_text='{"id", "name"}')
    days_per_move = serializers.IntegerField()
    ranked = serializers.BooleanField()
    rating = serializers.IntegerField(help_text="The seeker's rating when they sought.")
    display = serializers.CharField(help_text='The rating as people read it: "1500?" while provisional.')
    created_at = serializers.DateTimeField()


class SeeksOut(serializers.Serializer[Any]):
    results = SeekOut(many=True)
    next = serializers.CharField(allow_null=True)


class MyGameOut(serializers.Serializer[Any]):
    room = serializers.CharField()
    game = serializers.UUIDField()
    opponent = serializers.DictField(help_text='{"id", "name", "rating", "bot", "cpu"} (the CPU: id and rating null)')
    colour = serializers.ChoiceField(choices=["red", "yellow"])
    days_per_move = serializers.IntegerField(allow_null=True)
    turn_seconds = serializers.IntegerField(allow_null=True)
    deadline = serializers.DateTimeField(allow_null=True)
    ply = serializers.IntegerField()
    last_move = serializers.CharField(allow_null=True)
    moves = serializers.ListField(child=serializers.CharField(), help_text="For a mini board.")


class MyGamesOut(serializers.Serializer[Any]):
    your_turn = MyGameOut(many=True)
    waiting = MyGameOut(many=True)


class SeeksView(APIView):
    @extend_schema(operation_id="seeks_list",
                   parameters=[OpenApiParameter("page", int, required=False, description=f"1 to {MAX_PAGE}")],
                   responses={200: SeeksOut, 400: "bad_request"})
    def get(self, request: Request) -> Response:
        """The open correspondence seeks, newest first, 20 a page."""
        page = query_int(request.query_params, "page", default=1, low=1, high=MAX_PAGE)
        rows, more = seeks_page(now=timezone.now(), page=page)
        next_url = f"{reverse('seeks')}?page={page + 1}" if more and page < MAX_PAGE else None
        return Response({"results": rows, "next": next_url})

    @extend_schema(operation_id="seeks_create", request=SeekIn,
                   responses={201: SeekOut, 400: "bad_rules, too_many_seeks", 403: "no_account, bot_account, banned",
                              429: "rate_limited"})
    def post(self, request: Request) -> Response:
        """Look for a correspondence game: no page needs to stay open; the seek lasts 7 days."""
        data = request.data if isinstance(request.data, dict) else {}
        seek = seek_create(player=session_player(request.session), days_per_move=data.get("days_per_move"),
                           ranked=data.get("ranked", False), now=timezone.now(), address=client_address(request))
        return Response(seeks_json([seek], now=timezone.now())[0], status=status.HTTP_201_CREATED)


class SeekView(APIView):
    @extend_schema(operation_id="seeks_delete", request=None, responses={204: None, 403: "not_yours", 404: "no_seek"})
    def delete(self, request: Request, seek_id: int) -> Response:
        """The seeker takes their seek back."""
        seek_delete(player=session_player(request.session), seek_id=seek_id, now=timezone.now())
        return Response(status=status.HTTP_204_NO_CONTENT)


class SeekAcceptView(APIView):
    @extend_schema(operation_id="seeks_accept", request=None,
                   responses={201: OpenApiResponse(description="the room snapshot, its game started"),
                              400: "own_seek", 403: "no_account, bot_account, banned, blocked", 404: "no_seek",
                              429: "rate_limited"})
    def post(self, request: Request, seek_id: int) -> Response:
        """Take a seek: a room with both players seated and the correspondence game started (both are told,
        kind ``paired``)."""
        now = timezone.now()
        made = seek_accept(player=session_player(request.session), seek_id=seek_id, now=now,
                           address=client_address(request))
        return Response(snapshot_of(made.room, game=made.game, now=now), status=status.HTTP_201_CREATED)


class MyGamesView(APIView):
    @extend_schema(operation_id="my_games", responses={200: MyGamesOut})
    def get(self, request: Request) -> Response:
        """The games this device's player is playing, live and correspondence: whose turn it is, soonest
        deadline first, and those waiting for the opponent (a device with no player has none)."""
        player = session_player(request.session)
        if player is None:
            return Response({"your_turn": [], "waiting": []})
        return Response(my_games(player, now=timezone.now()))



