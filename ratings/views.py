"""REST endpoints of ratings: the leaderboard, and the session's part of the ratings (``rating``). Views only
translate HTTP (the player page is in games.views).

The serializers describe the answers for the OpenAPI schema and parse the query; the data come from
:mod:`ratings.selectors`.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.params import MAX_OFFSET
from players.models import Player
from players.session import SessionPart
from players.views import PlayerRefOut
from ratings.selectors import current_rating, leaderboard, rating_json, ratings_of

DEFAULT_PAGE = 50
MAX_PAGE = 100


class RatingFields(serializers.Serializer[Any]):
    rating = serializers.FloatField(help_text="Glicko-2 rating now (RD grown for idle days), 2 decimals.")
    rd = serializers.FloatField(help_text="Rating deviation now, 2 decimals.")
    provisional = serializers.BooleanField(help_text="RD is 110 or more: the rating is still uncertain.")
    display = serializers.CharField(help_text='Whole rating, with "?" while provisional, e.g. "1500?".')


def session_rating(player: Player | None, *, new: bool) -> dict[str, Any] | None:
    """The session's ``rating``: the player's now (a new player's is the first rating: nothing is read)."""
    if player is None:
        return None
    now = timezone.now()
    return rating_json(current_rating(None, now=now) if new else ratings_of([player.id], now=now)[player.id])


# Registered in players.session.SESSION_PARTS by ratings.apps.
SESSION_RATING = SessionPart("rating", session_rating, after="player", field=lambda: RatingFields(
    allow_null=True, help_text="The player's rating now; null without a player."))


class LeaderboardRowOut(RatingFields):
    rank = serializers.IntegerField()
    player = PlayerRefOut()
    games = serializers.IntegerField()


class LeaderboardOut(serializers.Serializer[Any]):
    count = serializers.IntegerField(help_text="How many players the whole list holds.")
    limit = serializers.IntegerField()
    offset = serializers.IntegerField()
    results = LeaderboardRowOut(many=True)


class LeaderboardQuery(serializers.Serializer[Any]):
    limit = serializers.IntegerField(required=False, default=DEFAULT_PAGE, min_value=1, max_value=MAX_PAGE)
    offset = serializers.IntegerField(required=False, default=0, min_value=0, max_value=MAX_OFFSET)
    include_provisional = serializers.BooleanField(required=False, default=False)
    bots = serializers.BooleanField(required=False, default=True, help_text="false: hide bot accounts.")


class HistoryPointOut(serializers.Serializer[Any]):
    game = serializers.UUIDField()
    at = serializers.DateTimeField()
    rating = serializers.FloatField()
    rd = serializers.FloatField()


class LeaderboardView(APIView):
    @extend_schema(
        operation_id="ratings_leaderboard",
        parameters=[LeaderboardQuery],
        responses={200: LeaderboardOut, 400: "bad_request"},
    )
    def get(self, request: Request) -> Response:
        """The leaderboard, best first. Provisional players are left out unless ``include_provisional``."""
        query = LeaderboardQuery(data=request.query_params)
        query.is_valid(raise_exception=True)  # else 400 bad_request, answered by the API's handler
        return Response(leaderboard(now=timezone.now(), **query.validated_data))
