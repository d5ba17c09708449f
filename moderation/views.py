"""``POST /api/reports`` (accounts and guests), and the page where a warned player reads and acknowledges a
moderator's warning. Views only translate HTTP; a refusal is answered by the API's handler."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import Refused
from moderation.models import Reason
from moderation.services import TEXT_MAX_CHARS, pending_warning, report_create, report_json, warning_acknowledge
from players.identity import client_address, session_player


class ReportIn(serializers.Serializer[Any]):
    player = serializers.UUIDField()
    reason = serializers.ChoiceField(choices=Reason.choices)
    text = serializers.CharField(max_length=TEXT_MAX_CHARS, required=False, allow_blank=True)
    game = serializers.UUIDField(allow_null=True, required=False)
    message = serializers.IntegerField(allow_null=True, required=False, help_text="A chat message's id.")


class ReportOut(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    player = serializers.UUIDField()
    reason = serializers.CharField()
    count = serializers.IntegerField(help_text="How many reports of the player the queue's open entry now holds.")
    merged = serializers.BooleanField(help_text="True: added to the queue's open entry for the player.")


class ReportsView(APIView):
    @extend_schema(operation_id="reports_create", request=ReportIn,
                   responses={201: ReportOut, 400: "bad_reason, self_report, too_long, bad_report",
                              401: "no_session", 404: "no_player, no_game, not_found", 429: "rate_limited"})
    def post(self, request: Request) -> Response:
        """Report a player to the moderators, with a chat message or a game if it is about one."""
        reporter = session_player(request.session)
        if reporter is None:
            raise Refused("no_session", gettext("Open the site first: this device has no player yet."))
        data = request.data if isinstance(request.data, dict) else {}
        report, merged = report_create(reporter=reporter, player_id=data.get("player"), reason=data.get("reason"),
                                       text=data.get("text"), game_id=data.get("game"),
                                       message_id=data.get("message"), now=timezone.now(),
                                       address=client_address(request))
        return Response(report_json(report, merged=merged), status=status.HTTP_201_CREATED)


def _next(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or "/"
    return target if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}) else "/"


@require_http_methods(["GET", "POST"])
def warning(request: HttpRequest) -> HttpResponse:
    """The moderator's warning, until the player acknowledges it (then back to the page they asked for)."""
    player = session_player(request.session)
    action = pending_warning(player.pk) if player is not None else None
    if player is None or action is None:
        return HttpResponseRedirect(_next(request))
    if request.method == "POST":
        warning_acknowledge(player=player, action_id=action.pk, now=timezone.now())
        return HttpResponseRedirect(_next(request))
    return render(request, "moderation/warning.html",
                  {"page": "warning", "message": gettext(action.message), "at": action.created_at,
                   "next": _next(request)})
