"""REST endpoints of games: a game's record, its post-game analysis, and a player's page (rating, record,
recent games). A refusal is raised and answered by the API's handler (``config.api``)."""

from __future__ import annotations

import uuid
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import Refused
from games.analyses import analysis_request
from games.models import GameStatus
from games.selectors import game_analysis_out, game_get, game_record, player_profile
from players.views import PlayerRefOut
from ratings.views import HistoryPointOut, RatingFields


def no_game() -> Refused:
    return Refused("no_game", gettext("There is no such game."))


def game_id_checked(game_id: str) -> str:
    """``game_id`` if it is a UUID (as every game's is).

    Raises:
        Refused(no_game): it is not.
    """
    try:
        uuid.UUID(game_id)
    except ValueError:
        raise no_game() from None
    return game_id


class GameDetailView(APIView):
    @extend_schema(responses={200: OpenApiResponse(description="the game record"), 404: "no_game"})
    def get(self, request: Request, game_id: str) -> Response:
        """A finished or running game: players per colour, moves with times, who played each, result."""
        record = game_record(game_id_checked(game_id))
        if record is None:
            raise no_game()
        return Response(record)


EVAL_KINDS = ["forced_win", "forced_loss", "draw", "heuristic", "final"]
MARKS = ["missed_win", "slower_win", "blunder", "only_move", "best"]


class EvalOut(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(
        choices=EVAL_KINDS, help_text="forced_win/forced_loss/draw are proved; heuristic is the search's opinion."
    )
    plies = serializers.IntegerField(allow_null=True, help_text="Forced results and draws: plies to the end.")
    move = serializers.CharField(allow_null=True, help_text="The recommended peg (null at the final position).")
    score = serializers.IntegerField(allow_null=True, help_text="Heuristic only: for the side to move.")
    depth = serializers.IntegerField(allow_null=True)
    nodes = serializers.IntegerField()


class AnalysisPlyOut(serializers.Serializer[Any]):
    ply = serializers.IntegerField(help_text="The position before move ply+1 (the last entry: the final one).")
    # A plain string: the enum of colours is named ColourEnum already, and one set may have one name.
    to_move = serializers.CharField(allow_null=True, help_text='"red" or "yellow"; null at the final position.')
    eval = EvalOut()
    played = serializers.CharField(allow_null=True, help_text="The peg played from here (null for the last).")
    mark = serializers.ChoiceField(choices=MARKS, allow_null=True)


class MomentOut(serializers.Serializer[Any]):
    ply = serializers.IntegerField()
    move_number = serializers.IntegerField()
    colour = serializers.ChoiceField(choices=["red", "yellow"])
    peg = serializers.CharField()
    kind = serializers.ChoiceField(choices=["missed_win", "slower_win", "blunder"])
    text = serializers.CharField()
    better = serializers.CharField(allow_null=True, help_text="A better peg to have played, when proved.")


class MarkCountsOut(serializers.Serializer[Any]):
    moves = serializers.IntegerField()
    best = serializers.IntegerField()
    only_move = serializers.IntegerField()
    slower_win = serializers.IntegerField()
    missed_win = serializers.IntegerField()
    blunder = serializers.IntegerField()


class AnalysisSummaryOut(serializers.Serializer[Any]):
    red = MarkCountsOut()
    yellow = MarkCountsOut()


class GameAnalysisOut(serializers.Serializer[Any]):
    game = serializers.UUIDField()
    status = serializers.ChoiceField(
        choices=["queued", "running", "done", "failed"],
        help_text="failed: the computation raised several times, or went over ANALYSIS_CPU_BUDGET_S (not retried).",
    )
    version = serializers.IntegerField(help_text="The engine's analysis version it is (to be) computed with.")
    queued_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    plies = AnalysisPlyOut(many=True, allow_null=True, help_text="Null until done; one entry per position.")
    moments = MomentOut(many=True, allow_null=True, help_text="Null until done; missed wins, slower wins and blunders.")
    summary = AnalysisSummaryOut(allow_null=True, help_text="Null until done; each colour's marks.")


class GameAnalysisView(APIView):
    @extend_schema(
        operation_id="games_analysis_retrieve",
        parameters=[OpenApiParameter("game_id", str, OpenApiParameter.PATH, description="The game's id (UUID).")],
        responses={
            200: GameAnalysisOut,
            404: "no_game: no such game; no_analysis: an abandoned game",
            409: "game_playing: the game is still being played",
        },
    )
    def get(self, request: Request, game_id: str) -> Response:
        """A finished game's analysis: queued when it ended, computed once in the background.

        Poll while ``status`` is queued or running. Abandoned games are not analysed.
        """
        game = game_get(game_id_checked(game_id))
        if game is None:
            raise no_game()
        if game.status == GameStatus.PLAYING:
            raise Refused("game_playing", gettext("The game is still being played."))
        row = analysis_request(game, now=timezone.now())
        if row is None:
            raise Refused("no_analysis", gettext("Abandoned games are not analysed."))
        return Response(game_analysis_out(game, row))


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
    title = serializers.CharField(allow_null=True, help_text='"BOT" for a bot account, else null.')
    username = serializers.CharField(allow_null=True,
                                     help_text="The account's username (to challenge it); null for a guest.")
    account = serializers.BooleanField(help_text="The player belongs to an account.")
    followers = serializers.IntegerField(help_text="How many accounts follow this player.")
    following = serializers.IntegerField(help_text="How many accounts this player follows.")
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    last_rated_at = serializers.DateTimeField(allow_null=True)
    recent_games = RecentGameOut(many=True)
    history = HistoryPointOut(many=True)
    puzzles = serializers.DictField(
        required=False, help_text='The puzzle trainer\'s part (the puzzles app): {"rating": {...}, "solved", "failed"}.'
    )


class PlayerDetailView(APIView):
    @extend_schema(
        operation_id="players_retrieve",
        parameters=[OpenApiParameter("player_id", str, OpenApiParameter.PATH, description="The player's id (UUID).")],
        responses={200: PlayerOut, 404: "no_player: no such player"},
    )
    def get(self, request: Request, player_id: str) -> Response:
        """A player's page: rating, record, recent games and the rating history (one point per rated game)."""
        profile = player_profile(player_id, now=timezone.now())
        if profile is None:
            raise Refused("no_player", gettext("There is no such player."))
        return Response(profile)
