"""REST endpoints of puzzles. Views only translate HTTP: the data come from :mod:`puzzles.selectors` and the
changes from :mod:`puzzles.services`. A refusal is raised and answered by the API's handler (``config.api``)
as ``{"code", "message"}``.
"""

from __future__ import annotations

import random
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import Refused
from players.identity import client_address, session_player
from players.models import Player
from puzzles.device import device_seen_mark, seen_on_device
from puzzles.limits import puzzle_move_quota_take
from puzzles.models import Puzzle
from puzzles.pool import THEMES, plies_of_theme
from puzzles.selectors import attempt_of, player_puzzle_rating, puzzle_get, puzzle_json, puzzle_next, puzzles_of_game
from puzzles.services import MoveOutcome, puzzle_daily, puzzle_move
from ratings.selectors import rating_json
from ratings.views import RatingFields


class PuzzleOut(serializers.Serializer[Any]):
    id = serializers.CharField()
    record = serializers.CharField(help_text="The game up to the puzzle's position: pegs separated by spaces.")
    # A plain string: the enum of colours is named ColourEnum already, and one set may have one name.
    to_move = serializers.CharField(help_text='The solver\'s colour: "red" or "yellow".')
    plies = serializers.IntegerField(help_text="The shortest forced win, in plies (3, 5, 7 or 9).")
    rating = serializers.IntegerField(help_text="The puzzle's Glicko-2 rating.")
    themes = serializers.ListField(child=serializers.ChoiceField(choices=list(THEMES)))
    attempt = serializers.ChoiceField(choices=["solved", "failed"], allow_null=True,
                                      help_text="This device's player's rated attempt at it, if any.")


class MoveIn(serializers.Serializer[Any]):
    moves = serializers.ListField(child=serializers.CharField(), help_text="The solver's moves so far, in order.")


class MoveOut(serializers.Serializer[Any]):
    result = serializers.ChoiceField(choices=["continue", "solved", "failed"])
    reply = serializers.CharField(required=False, help_text="continue: the defender's answer (longest defence).")
    refutation = serializers.ListField(child=serializers.CharField(), required=False,
                                       help_text="failed: what the defender plays after the wrong move.")
    solution = serializers.ListField(child=serializers.CharField(), required=False,
                                     help_text="solved/failed: a winning line (from where it went wrong).")
    rating_change = serializers.FloatField(required=False, allow_null=True,
                                           help_text="solved/failed: null when not rated (tried before, no player).")
    rating = RatingFields(required=False, allow_null=True, help_text="solved/failed: your puzzle rating now.")
    puzzle_rating = serializers.IntegerField(required=False, help_text="solved/failed: the puzzle's rating now.")
    line = serializers.ListField(child=serializers.DictField(), required=False,
                                 help_text='solved: the line of four, [{"peg", "level"}] (as in a game record).')


def _player(request: Request) -> Player | None:
    return session_player(request.session)


def _puzzle_response(request: Request, puzzle: Puzzle | None) -> Response:
    if puzzle is None:
        raise Refused("not_found", gettext("There is no such puzzle."))
    return Response(puzzle_json(puzzle, attempt=attempt_of(_player(request), puzzle)))


class PuzzleNextView(APIView):
    @extend_schema(
        operation_id="puzzles_next",
        parameters=[OpenApiParameter("theme", str, enum=list(THEMES), required=False)],
        responses={200: PuzzleOut, 400: "bad_request: an unknown theme",
                   404: "not_found: the pool is empty"},
    )
    def get(self, request: Request) -> Response:
        """A puzzle near your puzzle rating that you have not attempted (of ``theme`` if given)."""
        theme = request.query_params.get("theme")
        try:
            plies = None if theme is None else plies_of_theme(theme)
        except ValueError:
            raise Refused("bad_request", gettext('"%(theme)s" is not a theme; the themes are %(themes)s.')
                          % {"theme": theme, "themes": ", ".join(THEMES)}) from None
        puzzle = puzzle_next(player=_player(request), plies=plies, now=timezone.now(), rng=random.Random())
        return _puzzle_response(request, puzzle)


class PuzzleDailyView(APIView):
    @extend_schema(operation_id="puzzles_daily", responses={200: PuzzleOut, 404: "not_found"})
    def get(self, request: Request) -> Response:
        """Today's puzzle (UTC day), the same for everyone."""
        return _puzzle_response(request, puzzle_daily(now=timezone.now()))


class GamePuzzleOut(serializers.Serializer[Any]):
    ply = serializers.IntegerField(help_text="The game position's index (the position before move ply+1).")
    id = serializers.CharField()
    plies = serializers.IntegerField()


class PuzzlesOfGameOut(serializers.Serializer[Any]):
    puzzles = GamePuzzleOut(many=True)


class PuzzlesView(APIView):
    @extend_schema(
        operation_id="puzzles_of_game",
        parameters=[OpenApiParameter("game", str, required=True, description="A game's id (UUID).")],
        responses={200: PuzzlesOfGameOut},
    )
    def get(self, request: Request) -> Response:
        """The puzzles made from a game's proved missed wins (an unknown game has none)."""
        return Response({"puzzles": puzzles_of_game(request.query_params.get("game", ""))})


class PuzzleDetailView(APIView):
    @extend_schema(operation_id="puzzles_retrieve", responses={200: PuzzleOut, 404: "not_found"})
    def get(self, request: Request, puzzle_id: str) -> Response:
        """One puzzle: its position, length, rating and themes (never its solution)."""
        return _puzzle_response(request, puzzle_get(puzzle_id))


def move_json(outcome: MoveOutcome) -> dict[str, Any]:
    """The answer to a move: ``continue`` with the reply, or the end with the solution and the ratings."""
    judgement = outcome.judgement
    result = judgement.verdict.value
    if result == "continue":
        assert judgement.reply is not None
        return {"result": result, "reply": judgement.reply.value}
    body: dict[str, Any] = {"result": result}
    if result == "failed":
        body["refutation"] = [peg.value for peg in judgement.refutation]
    body["solution"] = [peg.value for peg in judgement.solution]
    if result == "solved":
        body["line"] = [{"peg": cell.peg.value, "level": cell.level} for cell in judgement.four]
    rated = outcome.rated
    body["rating_change"] = None if rated is None else round(rated.change, 2)
    body["rating"] = None if rated is None else rating_json(rated.after)
    if rated is not None:
        body["puzzle_rating"] = round(rated.puzzle_after.rating)
    return body


class PuzzleMoveView(APIView):
    @extend_schema(
        operation_id="puzzles_move",
        request=MoveIn,
        responses={200: MoveOut, 400: "bad_request, bad_peg, peg_full",
                   404: "not_found",
                   429: "rate_limited: 60 moves a minute per address",
                   503: "busy: the check ran past its budget"},
    )
    def post(self, request: Request, puzzle_id: str) -> Response:
        """Judge your moves so far (all of them, in order); the first finished attempt is rated."""
        moves = request.data.get("moves") if isinstance(request.data, dict) else None
        player = _player(request)
        puzzle_move_quota_take(address=client_address(request), now=timezone.now())
        outcome = puzzle_move(puzzle_id=puzzle_id, moves=moves, player=player, now=timezone.now(),
                              seen=seen_on_device(request.session))
        if outcome.judgement.verdict.value != "continue" and player is None:
            device_seen_mark(request.session, puzzle_id)  # shown the solution: never rated on this device
        body = move_json(outcome)
        if outcome.judgement.verdict.value != "continue" and outcome.rated is None and player is not None:
            body["rating"] = rating_json(player_puzzle_rating(player, now=timezone.now()))
        return Response(body)
