"""REST endpoint for game records."""

from __future__ import annotations

import uuid

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.selectors import game_record


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
