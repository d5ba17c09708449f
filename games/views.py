"""REST endpoints of games: a game's record, and a player's page (rating, record, recent games)."""

from __future__ import annotations

import uuid
from typing import Any

from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.selectors import game_record, player_profile
from ratings.views import ErrorOut, HistoryPointOut, PlayerRefOut, RatingFields


class GameDetailView(APIView):
    @extend_schema(responses={200: OpenApiResponse(description="the game record"), 404: None})
    def get(self, request: Request, game_id: str) -> Response:
        """A finished or running game: players per colour, moves with times, who played each, result."""
        try:
            uuid.UUID(game_id)
        except ValueError:
            return Response({"code": "no_game", "message": "There is no such game."}, status=404)
        record = game_record(game_id)
        if record is None:
            return Response({"code": "no_game", "message": "There is no such game."}, status=404)
        return Response(record)


class RecentGameOut(serializers.Serializer[Any]):
    id = serializers.UUIDField()
    colour = serializers.ChoiceField(choices=["red", "yellow"])
    opponent = PlayerRefOut(allow_null=True)
    opponent_cpu = serializers.BooleanField()
    status = serializers.ChoiceField(choices=["won", "drawn", "resigned", "abandoned"],
                                     help_text="abandoned: the room closed before the game ended (no result).")
    result = serializers.ChoiceField(choices=["win", "draw", "loss"], allow_null=True)
    rated = serializers.BooleanField()
    rating_before = serializers.FloatField(allow_null=True)
    rating_after = serializers.FloatField(allow_null=True)
    rating_change = serializers.FloatField(allow_null=True)
    finished_at = serializers.DateTimeField()


class PlayerOut(RatingFields):
    id = serializers.UUIDField()
    name = serializers.CharField()
    account = serializers.BooleanField(help_text="The player belongs to an account.")
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    last_rated_at = serializers.DateTimeField(allow_null=True)
    recent_games = RecentGameOut(many=True)
    history = HistoryPointOut(many=True)


class PlayerDetailView(APIView):
    @extend_schema(
        operation_id="players_retrieve",
        parameters=[OpenApiParameter("player_id", str, OpenApiParameter.PATH, description="The player's id (UUID).")],
        responses={200: PlayerOut, 404: OpenApiResponse(ErrorOut, description="no such player")},
    )
    def get(self, request: Request, player_id: str) -> Response:
        """A player's page: rating, record, recent games and the rating history (one point per rated game)."""
        profile = player_profile(player_id, now=timezone.now())
        if profile is None:
            return Response({"code": "no_player", "message": "There is no such player."}, status=404)
        return Response(profile)
