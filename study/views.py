"""REST endpoints of the study tools' records and game lists. Views only translate HTTP; a refusal is raised
and answered by the API's handler (``config.api``) as ``{"code", "message"}``, the one async view's (the
records stream, outside DRF) by its middleware for such views."""

from __future__ import annotations

import json
import secrets
import uuid
from collections.abc import AsyncIterator, Callable, Coroutine, Mapping
from datetime import UTC, datetime
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse, StreamingHttpResponse
from django.utils import timezone, translation
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.log import log_response
from django.utils.timezone import make_aware
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.asgi import STREAM_MARK
from common.errors import Busy, RateLimited, Refused, status_for
from common.params import query_int
from common.text import refuse_bad_text
from common.translation import render
from games.engine import Position
from games.selectors import game_get
from games.views import game_id_checked, no_game
from live.offload import offload
from players.identity import client_address
from players.language import visitor_language
from players.models import Player
from study.board import analysis_answer
from study.explorer import explorer_query
from study.games import KINDS, RESULTS, GamesFilter, player_games
from study.limits import analysis_quota_take, records_stream_release, records_stream_renew, records_stream_take
from study.recordfile import MAX_RECORD_BYTES, RecordError, record_parse
from study.records import STREAM_PAGE, game_record_file, records_page

MAX_STREAMED = 100_000
"""The most records one ``games.txt`` download holds (``max`` defaults to it)."""


def base_url(request: HttpRequest | Request) -> str:
    return f"{request.scheme}://{request.get_host()}"


def no_player() -> Refused:
    return Refused("no_player", gettext("There is no such player."))


def _player_checked(player_id: str) -> str:
    try:
        uuid.UUID(player_id)
    except ValueError:
        raise no_player() from None
    if not Player.objects.filter(pk=player_id).exists():
        raise no_player()
    return player_id


class TextRenderer(BaseRenderer):
    """``text/plain``: what a client asking for the record as text accepts (a refusal still the JSON body)."""

    media_type = "text/plain"
    format = "txt"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None,
               renderer_context: Mapping[str, Any] | None = None) -> bytes:  # Any: DRF's signature
        return (data if isinstance(data, str) else json.dumps(data)).encode()


class GameRecordView(APIView):
    renderer_classes = [JSONRenderer, TextRenderer]  # the record is text: Accept: text/plain is served

    @extend_schema(operation_id="games_record_retrieve", responses={
        (200, "text/plain"): OpenApiResponse(description="the game's record file (docs/records.md)"), 404: "no_game"})
    def get(self, request: Request, game_id: str) -> HttpResponse:
        """A game's record file, to download (``text/plain``, with a file name)."""
        game = game_get(game_id_checked(game_id))
        if game is None:
            raise no_game()
        response = HttpResponse(game_record_file(game, base_url=base_url(request)),
                                content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="game-{game.pk}.txt"'
        return response


class RecordIn(serializers.Serializer[Any]):
    text = serializers.CharField(allow_blank=True, trim_whitespace=False,
                                 help_text=f"A record file or moves only, at most {MAX_RECORD_BYTES} bytes.")


class RecordOut(serializers.Serializer[Any]):
    headers = serializers.DictField(child=serializers.CharField())
    moves = serializers.ListField(child=serializers.CharField())
    result = serializers.ChoiceField(choices=["1-0", "0-1", "1/2-1/2", "*"])
    status = serializers.ChoiceField(choices=["playing", "won", "drawn", "resigned", "abandoned"])
    winner = serializers.ChoiceField(choices=["red", "yellow"], allow_null=True)
    line = serializers.ListField(child=serializers.DictField(), allow_null=True,
                                 help_text='The winning line\'s cells, [{"peg", "level"}], when a line ended it.')


class RecordParseView(APIView):
    # A record of up to MAX_RECORD_BYTES, which JSON's escapes may make up to six times longer (``\u0000``):
    # the API's parser takes a body this long here (config.parsers); the record's own limit is checked on
    # the text (study.recordfile).
    max_body_bytes = 6 * MAX_RECORD_BYTES + 1024

    @extend_schema(operation_id="records_parse", request=RecordIn,
                   responses={200: RecordOut, 400: "bad_record: the move number and the reason"})
    def post(self, request: Request) -> Response:
        """Read a record (or moves only) and replay it with the engine."""
        body = RecordIn(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            record = record_parse(body.validated_data["text"])
        except RecordError as error:
            raise Refused("bad_record", render(error)) from None
        return Response(record.to_json())


class GamesQuery(serializers.Serializer[Any]):
    page = serializers.IntegerField(min_value=1, max_value=10_000, default=1)
    result = serializers.ChoiceField(choices=list(RESULTS), required=False)
    ranked = serializers.BooleanField(required=False, allow_null=True, default=None)
    opponent = serializers.UUIDField(required=False)
    kind = serializers.ChoiceField(choices=list(KINDS), required=False)


class SideOut(serializers.Serializer[Any]):
    player = serializers.DictField(allow_null=True, help_text='{"id", "name", "title"?}; null for the CPU.')
    cpu = serializers.BooleanField()


class PlayedGameOut(serializers.Serializer[Any]):
    game = serializers.UUIDField()
    room = serializers.CharField()
    kind = serializers.ChoiceField(choices=list(KINDS))
    colour = serializers.ChoiceField(choices=["red", "yellow"], help_text="The player's colour in it.")
    red = SideOut()
    yellow = SideOut()
    result = serializers.ChoiceField(choices=list(RESULTS), allow_null=True, help_text="null: abandoned.")
    reason = serializers.CharField(allow_null=True)
    plies = serializers.IntegerField()
    ranked = serializers.BooleanField()
    rating_change = serializers.FloatField(allow_null=True)
    finished_at = serializers.DateTimeField()


class PlayedGamesOut(serializers.Serializer[Any]):
    page = serializers.IntegerField()
    pages = serializers.IntegerField()
    count = serializers.IntegerField()
    games = PlayedGameOut(many=True)


class PlayerGamesView(APIView):
    @extend_schema(operation_id="players_games_list", parameters=[GamesQuery],
                   responses={200: PlayedGamesOut, 400: "bad_request", 404: "no_player"})
    def get(self, request: Request, player_id: str) -> Response:
        """Every finished game of the player, newest first, 20 a page, with filters."""
        query = GamesQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        data = query.validated_data
        opponent = data.get("opponent")
        narrow = GamesFilter(result=data.get("result"), ranked=data.get("ranked"),
                             opponent=None if opponent is None else str(opponent), kind=data.get("kind"))
        return Response(player_games(_player_checked(player_id), page=data["page"], narrow=narrow))


def _instant(text: str | None, name: str) -> datetime | None:
    """A ``since``/``until`` query value: an ISO date (midnight UTC) or date-time."""
    if not text:
        return None
    try:
        moment = parse_datetime(text)
        if moment is None:
            day = parse_date(text)
            moment = None if day is None else datetime(day.year, day.month, day.day)
        # In UTC: PostgreSQL refuses an offset past ±15:59, which ISO 8601 allows (to ±23:59).
        moment = None if moment is None else (
            moment.astimezone(UTC) if moment.tzinfo is not None else make_aware(moment, timezone=UTC))
    except (ValueError, OverflowError):  # not one; or its UTC instant is outside years 1 to 9999
        moment = None
    if moment is None:
        raise Refused("bad_request", gettext("%(name)s is not a date (2026-12-01) or a date-time.") % {"name": name})
    return moment


def _stream_args(request: HttpRequest, player_id: str) -> tuple[datetime | None, datetime | None, int]:
    since = _instant(request.GET.get("since"), "since")
    until = _instant(request.GET.get("until"), "until")
    most = query_int(request.GET, "max", default=MAX_STREAMED, low=1, high=MAX_STREAMED)
    _player_checked(player_id)
    return since, until, most


async def player_games_text(request: HttpRequest, player_id: str) -> HttpResponseBase:
    """``GET /api/players/{id}/games.txt``: every finished game's record, newest first, separated by blank
    lines, streamed a page of games at a time; ``since``/``until`` (dates or date-times, until excluded)
    and ``max``; one such stream at a time per client address (429 while one is open).

    Raises:
        Refused: method_not_allowed, bad_request, no_player, rate_limited (``config.api`` answers them).
    """
    if request.method != "GET":
        raise Refused("method_not_allowed", gettext("Only GET is allowed here."))
    address, holder = client_address(request), secrets.token_hex(8)
    since, until, most = await offload(_stream_args, lane="request")(request, player_id)
    await offload(records_stream_take, lane="request")(address=address, holder=holder)
    url = base_url(request)

    async def body() -> AsyncIterator[str]:
        try:
            after: tuple[datetime, str] | None = None
            left = most
            while left > 0:
                records, after = await offload(records_page)(
                    player_id, since=since, until=until, limit=min(STREAM_PAGE, left), after=after, base_url=url)
                for record in records:
                    yield record + "\n"  # sent once the reader has room for it (config.serve: back-pressure)
                await offload(records_stream_renew)(address=address, holder=holder)
                left -= len(records)
                if after is None:
                    break
        finally:
            await offload(records_stream_release)(address=address, holder=holder)

    response = StreamingHttpResponse(body(), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="games-{player_id}.txt"'
    response["X-Accel-Buffering"] = "no"
    return response


class ExplorerQuery(serializers.Serializer[Any]):
    record = serializers.CharField(required=False, allow_blank=True, default="",
                                   help_text="The position: pegs separated by commas or spaces, Red first.")
    ranked = serializers.BooleanField(required=False, allow_null=True, default=None)


class ExplorerMoveOut(serializers.Serializer[Any]):
    peg = serializers.CharField(help_text="In the asked position's orientation.")
    games = serializers.IntegerField()
    red_wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    yellow_wins = serializers.IntegerField()
    bot_games = serializers.IntegerField(help_text="Of its games, those a bot played.")
    average_rating = serializers.IntegerField(allow_null=True)


class ExplorerOut(serializers.Serializer[Any]):
    games = serializers.IntegerField(help_text="Games that reached the position (any of its symmetric images).")
    moves = ExplorerMoveOut(many=True)
    recent = serializers.ListField(child=serializers.UUIDField())
    depth = serializers.IntegerField(help_text="The plies of each game the explorer learns.")


def position_of(text: str) -> Position:
    """The position after a ``record`` query value (``a1,b1`` or ``a1 b1``; a whole record file too).

    Raises:
        Refused(bad_record): it does not replay.
    """
    try:
        parsed = record_parse(text)
    except RecordError as error:
        raise Refused("bad_record", render(error)) from None
    return Position.from_record(" ".join(parsed.moves))


class ExplorerView(APIView):
    @extend_schema(operation_id="explorer_retrieve", parameters=[ExplorerQuery],
                   responses={200: ExplorerOut, 400: "bad_record, bad_request"})
    def get(self, request: Request) -> Response:
        """The opening explorer: the moves the site's players played from a position and how they ended."""
        query = ExplorerQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        position = position_of(query.validated_data["record"])
        return Response(explorer_query(position, ranked=query.validated_data["ranked"]))


def _refusal(refused: Refused) -> JsonResponse:
    """A refusal of a view served apart (without the middleware, so without ``config.api``'s): the same body,
    status and ``Retry-After``."""
    response = JsonResponse({"code": refused.code, "message": refused.message}, status=status_for(refused.code))
    if isinstance(refused, RateLimited):
        response["Retry-After"] = str(refused.retry_after)
    return response


AsyncView = Callable[[HttpRequest], Coroutine[Any, Any, HttpResponseBase]]  # an async def's type


def apart(view: AsyncView) -> AsyncView:
    """``view`` (async, GET only) served on the event loop alone, holding no HTTP thread while it waits
    (``common.asgi.STREAM_MARK``: ``config.http`` serves it without the middleware), its refusals answered
    here in the language its headers ask for, and its query held to the input check's rule."""

    @wraps(view)
    async def answer(request: HttpRequest) -> HttpResponseBase:
        with translation.override(visitor_language(request, None)):
            try:
                if request.method != "GET":
                    raise Refused("method_not_allowed", gettext("Only GET is allowed here."))
                for key, values in request.GET.lists():
                    refuse_bad_text([key, *values], where="the query")
                return await view(request)
            except Refused as refused:
                response = _refusal(refused)
                if isinstance(refused, Busy):  # shedding load is no server error: a warning, not Django's error line
                    log_response("%s: %s", response.reason_phrase, request.path, request=request,
                                 response=response, level="warning")
                return response

    setattr(answer, STREAM_MARK, True)
    return answer


def _analysis_args(request: HttpRequest) -> tuple[Position, int]:
    """The position and the budget a ``GET /api/analysis`` asks for, its address's request counted.

    Raises:
        Refused: rate_limited, bad_request (``budget``), bad_record.
    """
    analysis_quota_take(address=client_address(request), now=timezone.now())
    budget = query_int(request.GET, "budget", default=settings.ANALYSIS_BOARD_BUDGET_MS, low=1, high=2**31)
    return position_of(request.GET.get("record", "")), min(budget, settings.ANALYSIS_BOARD_MAX_MS)


@apart
async def analysis_view(request: HttpRequest) -> HttpResponseBase:
    """``GET /api/analysis?record=a1,b1&budget=300``: the engine's word on a position and on each of its
    moves, within a CPU budget (milliseconds; default and cap: settings), computed in the analysis board's
    lane of the CPU workers; 503 ``busy`` with ``Retry-After`` when the process's lane is full."""
    position, budget = await offload(_analysis_args, lane="request")(request)
    return JsonResponse(await analysis_answer(position, budget_ms=budget))
