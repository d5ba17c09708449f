"""REST endpoints of the notifications (docs/protocol.md): a page of them, and marking them read. Views
only translate HTTP; a refusal is raised and answered by the API's handler (``config.api``)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import Refused
from common.params import query_int
from notifications import limits
from notifications.protocol import page_json
from notifications.selectors import notifications_page, unread_count
from notifications.services import MAX_READ_IDS, notifications_read
from players.identity import client_address, session_player

# Pages beyond this are not served (20 a page: the newest 1,000 notifications).
MAX_PAGE = 50


# inline: a field named data would shadow the serializer's own .data
NotificationOut = inline_serializer("NotificationOut", fields={
    "id": serializers.IntegerField(),
    "kind": serializers.CharField(help_text="challenge, challenge_accepted, challenge_declined, challenge_expired, "
                                            "followed, arena_starting, and the kinds later parts register."),
    "created_at": serializers.DateTimeField(),
    "read": serializers.BooleanField(),
    "text": serializers.CharField(help_text="What a person reads."),
    "url": serializers.CharField(allow_null=True, help_text="The page to open."),
    "data": serializers.DictField(help_text="What a client needs, by kind (docs/protocol.md)."),
})


class PageOut(serializers.Serializer[Any]):
    unread = serializers.IntegerField()
    results = serializers.ListField(child=NotificationOut)
    next = serializers.CharField(allow_null=True)


class ReadIn(serializers.Serializer[Any]):
    ids = serializers.ListField(child=serializers.IntegerField(), required=False, max_length=MAX_READ_IDS)
    all = serializers.BooleanField(required=False)


class UnreadOut(serializers.Serializer[Any]):
    unread = serializers.IntegerField()


def _read_ids(data: object) -> list[int] | None:
    """The ids to mark read, or None for all of them.

    Raises:
        Refused(bad_request): neither ``{"ids": [...]}`` (at most ``MAX_READ_IDS`` integers) nor ``{"all": true}``.
    """
    if isinstance(data, dict) and data.keys() == {"all"} and data["all"] is True:
        return None
    ids = data.get("ids") if isinstance(data, dict) and data.keys() == {"ids"} else None
    if (isinstance(ids, list) and len(ids) <= MAX_READ_IDS
            and all(isinstance(i, int) and not isinstance(i, bool) and 0 < i < 2**63 for i in ids)):
        return ids
    raise Refused("bad_request", gettext('Send {"ids": [...]} (at most %(most)s ids) or {"all": true}.')
                  % {"most": MAX_READ_IDS})


class NotificationsView(APIView):
    @extend_schema(operation_id="notifications_list",
                   parameters=[OpenApiParameter("page", int, required=False, description=f"1 to {MAX_PAGE}")],
                   responses={200: PageOut, 400: "bad_request", 429: "rate_limited"})
    def get(self, request: Request) -> Response:
        """This device's player's notifications, newest first, 20 a page, with the unread count (a device
        with no player yet has none)."""
        page = query_int(request.query_params, "page", default=1, low=1, high=MAX_PAGE)
        player = session_player(request.session)
        if player is None:
            return Response(page_json([], unread=0, next_url=None))
        limits.notifications_quota_take(limits.PAGES, player_id=player.pk, address=client_address(request),
                                        now=timezone.now())
        rows, more = notifications_page(player.pk, page=page)
        next_url = f"{reverse('notifications')}?page={page + 1}" if more and page < MAX_PAGE else None
        return Response(page_json(rows, unread=unread_count(player.pk), next_url=next_url))


class NotificationsReadView(APIView):
    @extend_schema(operation_id="notifications_read", request=ReadIn,
                   responses={200: UnreadOut, 400: "bad_request", 401: "no_session", 429: "rate_limited"})
    def post(self, request: Request) -> Response:
        """Mark these notifications read (``{"ids": [...]}``), or all of them (``{"all": true}``)."""
        ids = _read_ids(request.data)
        player = session_player(request.session)
        if player is None:
            raise Refused("no_session", gettext("This device has no player yet: it has no notifications."))
        now = timezone.now()
        limits.notifications_quota_take(limits.READS, player_id=player.pk, address=client_address(request), now=now)
        return Response({"unread": notifications_read(player_id=player.pk, ids=ids, now=now)})
