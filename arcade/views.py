"""REST endpoints of the arcade (docs/arcade.md, "The API"). Views only translate HTTP: the changes come from
:mod:`arcade.services`, the reads from :mod:`arcade.selectors`; a refusal is raised and answered by the API's
handler (``config.api``) as ``{"code", "message"}``.

Who plays: a personal access token's account (``Authorization: Bearer``; its runs are a bot's, ranked on
the bots' board), else the device's player (a guest is made for a device without one when it starts a run).
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arcade import serializers as out
from arcade.engine import MODES
from arcade.selectors import BOARDS, PERIODS, run_get, runs_of, scores_top
from arcade.services import Outcome, run_start, run_step
from arcade.shown import run_json, step_json
from common.params import query_int
from players.auth import BearerTokenAuthentication, DeviceSessionAuthentication
from players.identity import client_address, session_attach, session_player
from players.limits import guest_create_quota_take
from players.models import AccessToken, Player
from players.services import player_create
from players.session import DEFAULT_GUEST_NAME

BUSY = "rate_limited (see the Retry-After header)"
STEP_REFUSALS = {400: "bad_request, bad_dir", 403: "banned", 404: "no_run",
                 409: "stale: n is not the run's steps (the body's run holds its state); not_playing, run_ended",
                 429: BUSY}
UNDO_REFUSALS = {400: "bad_request, no_undo (classic)", 403: "banned", 404: "no_run",
                 409: "stale (with the run); undo_spent (twice in a row or before a move), run_ended", 429: BUSY}
CONTINUE_REFUSALS = {400: "bad_request", 403: "banned", 404: "no_run",
                     409: "stale (with the run); not_won, run_ended", 429: BUSY}
END_REFUSALS = {400: "bad_request", 403: "banned", 404: "no_run", 409: "stale (with the run); run_ended", 429: BUSY}


def _body(request: Request) -> dict[str, Any]:
    return request.data if isinstance(request.data, dict) else {}


class ArcadeView(APIView):
    authentication_classes = [BearerTokenAuthentication, DeviceSessionAuthentication]

    def player(self, request: Request) -> Player | None:
        """Who plays: the token's account, else the device's player (None before it has one)."""
        if isinstance(request.auth, AccessToken):
            return request.auth.player
        return session_player(request.session)

    def is_bot(self, request: Request, player: Player) -> bool:
        return isinstance(request.auth, AccessToken) or player.is_bot


def _step_response(outcome: Outcome) -> Response:
    return Response(step_json(outcome.run, moved=outcome.moved, spawned=outcome.spawned, gained=outcome.gained))


class RunsView(ArcadeView):
    @extend_schema(operation_id="arcade_run_start", request=out.ArcadeStartIn,
                   responses={201: out.ArcadeRunOut, 400: "bad_mode, bad_request", 403: "banned",
                              429: "rate_limited (see the Retry-After header)"})
    def post(self, request: Request) -> Response:
        """Start a run of ``mode`` (the player's open run of the mode, if any, is ended and scored first).
        A device without a player gets a guest."""
        now = timezone.now()
        player = self.player(request)
        if player is None:
            guest_create_quota_take(address=client_address(request), now=now)
            player = player_create(name=DEFAULT_GUEST_NAME, now=now)
            session_attach(request.session, player)
        run = run_start(player=player, mode_id=_body(request).get("mode"), bot=self.is_bot(request, player), now=now,
                        address=client_address(request))
        return Response(run_json(run), status=201)

    @extend_schema(operation_id="arcade_runs", responses={200: out.ArcadeRunOut(many=True)}, parameters=[
        OpenApiParameter("mode", str, enum=list(MODES), required=False),
        OpenApiParameter("status", str, enum=["playing", "won", "over", "ended"], required=False)])
    def get(self, request: Request) -> Response:
        """Your open runs (one a mode at most), of ``mode`` and ``status`` if given: the run to resume."""
        runs = runs_of(self.player(request), mode=request.query_params.get("mode"),
                       status=request.query_params.get("status"))
        return Response([run_json(run) for run in runs])


class RunView(ArcadeView):
    @extend_schema(operation_id="arcade_run", responses={200: out.ArcadeRunOut, 404: "no_run"})
    def get(self, request: Request, run_id: str) -> Response:
        """A run: yours, or anyone's once it is closed (then with its ``record``, to watch it replayed)."""
        return Response(run_json(run_get(run_id, viewer=self.player(request))))


class RunStepView(ArcadeView):
    op = "move"

    def get_view_name(self) -> str:
        return f"arcade run {self.op}"

    def post(self, request: Request, run_id: str) -> Response:
        data = _body(request)
        return _step_response(run_step(run_id=run_id, player=self.player(request), op=self.op, n=data.get("n"),
                                       direction=data.get("dir"), now=timezone.now()))


class RunMoveView(RunStepView):
    op = "move"

    @extend_schema(operation_id="arcade_run_move", request=out.ArcadeMoveIn,
                   responses={200: out.ArcadeStepOut, **STEP_REFUSALS})
    def post(self, request: Request, run_id: str) -> Response:
        """Slide the tiles toward ``dir``; the server deals the new tiles. ``n``: the run's ``steps`` you have
        seen (a retry with the same ``n`` answers the same and moves once). A move that moves nothing answers
        ``"moved": false`` and changes nothing."""
        return super().post(request, run_id)


class RunUndoView(RunStepView):
    op = "undo"

    @extend_schema(operation_id="arcade_run_undo", request=out.ArcadeStepIn,
                   responses={200: out.ArcadeStepOut, **UNDO_REFUSALS})
    def post(self, request: Request, run_id: str) -> Response:
        """Take the last move back (the cubes; not twice in a row): the position before it, its status too."""
        return super().post(request, run_id)


class RunContinueView(RunStepView):
    op = "continue"

    @extend_schema(operation_id="arcade_run_continue", request=out.ArcadeStepIn,
                   responses={200: out.ArcadeStepOut, **CONTINUE_REFUSALS})
    def post(self, request: Request, run_id: str) -> Response:
        """Play on after a win (a cube's target reached)."""
        return super().post(request, run_id)


class RunEndView(RunStepView):
    op = "end"

    @extend_schema(operation_id="arcade_run_end", request=out.ArcadeStepIn,
                   responses={200: out.ArcadeStepOut, **END_REFUSALS})
    def post(self, request: Request, run_id: str) -> Response:
        """End the run: it is closed, its record replayed, and its checked score ranked."""
        return super().post(request, run_id)


class ScoresView(ArcadeView):
    @extend_schema(operation_id="arcade_scores", responses={200: out.ArcadeScoresOut, 400: "bad_mode, bad_request"},
                   parameters=[OpenApiParameter("mode", str, enum=list(MODES), required=True),
                               OpenApiParameter("period", str, enum=list(PERIODS), required=False),
                               OpenApiParameter("board", str, enum=list(BOARDS), required=False),
                               OpenApiParameter("page", int, required=False)])
    def get(self, request: Request) -> Response:
        """The high scores of a mode: each player's best checked score (all time, this week or today, UTC),
        people's or bots' (``board``), 50 a page."""
        query = request.query_params
        page = scores_top(query.get("mode", ""), query.get("period", "all"),
                          query_int(query, "page", default=1, low=1, high=10_000),
                          board=query.get("board", "players"), now=timezone.now())
        return Response({"mode": page.mode, "period": page.period, "board": page.board, "page": page.page,
                         "more": page.more, "rows": page.rows})


class ModesView(ArcadeView):
    @extend_schema(operation_id="arcade_modes", responses={200: out.ArcadeModeOut(many=True)})
    def get(self, request: Request) -> Response:
        """The modes: each one's board, new tiles a move, four-rate, target, undo and move cap."""
        return Response([out.mode_json(mode) for mode in MODES.values()])
