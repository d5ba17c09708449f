"""REST endpoints of the lobby: rooms, taking a seat, and the live games; and the session's part of the
rooms (``rooms``: where the player has a seat, ``players.session``). Views only translate HTTP; a refusal is
raised and answered by the API's handler (``config.api``)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import Refused
from common.params import MAX_OFFSET
from lobby.events import room_closed_refusal
from lobby.protocol.room import room_frame
from lobby.rooms.limits import room_lookup_quota_take, rooms_create_quota_take
from lobby.rooms.listings import live_games
from lobby.rooms.people import friends_of
from lobby.rooms.selectors import player_rooms, room_snapshot
from lobby.rooms.services import room_create_check, room_create_shown, room_sit
from players.identity import client_address, session_attach, session_player
from players.limits import guest_create_quota_take
from players.models import Player
from players.services import player_create, refuse_bots
from players.session import DEFAULT_GUEST_NAME, SessionPart
from players.social import refuse_guests
from ratings.views import RatingFields


class SessionRoomOut(serializers.Serializer[Any]):
    code = serializers.CharField()
    seat = serializers.IntegerField()
    playing = serializers.BooleanField(help_text="A game is being played in the room.")


def session_rooms(player: Player | None, *, new: bool) -> list[dict[str, Any]]:
    """The session's ``rooms``: the open rooms where the player has a seat (none read for a new player)."""
    return [] if player is None or new else player_rooms(player)


# Registered in players.session.SESSION_PARTS by lobby.apps.
SESSION_ROOMS = SessionPart("rooms", session_rooms, after="username", field=lambda: SessionRoomOut(
    many=True, help_text="Open rooms where the player has a seat, most recent first."))


def device_player(request: Request, *, create_as: str | None = None) -> Player | None:
    """The device's player; with ``create_as``, one is created under that name when missing (counted against the
    client address: ``players.limits.guest_create_quota_take``).

    Raises:
        RateLimited: a guest was to be made and the address has made too many.
    """
    player = session_player(request.session)
    if player is None and create_as is not None:
        now = timezone.now()
        guest_create_quota_take(address=client_address(request), now=now)
        player = player_create(name=create_as, now=now)
        session_attach(request.session, player)
    return player


class RulesIn(serializers.Serializer[Any]):
    turn_seconds = serializers.IntegerField(required=False, allow_null=True)
    days_per_move = serializers.IntegerField(
        required=False, allow_null=True, help_text="A correspondence room: 1, 2, 3, 5 or 7 days per move.")
    alternate_first = serializers.BooleanField(required=False)
    ranked = serializers.BooleanField(required=False)
    cpu_level = serializers.IntegerField(required=False)
    spectator_chat = serializers.BooleanField(required=False)
    open = serializers.BooleanField(required=False, help_text="Listed in the lobby while a seat is free.")


class RoomsView(APIView):
    @extend_schema(
        request=RulesIn,
        responses={
            201: OpenApiResponse(description="the room snapshot"),
            400: "bad_rules, bad_request",
            403: "banned: the player is banned; bot_account",
            429: "rate_limited (see the Retry-After header)",
        },
    )
    def post(self, request: Request) -> Response:
        """Create a room with house rules; the device's player is the host in seat 1."""
        if not isinstance(request.data, dict):
            raise Refused("bad_rules", gettext("Send the house rules as a JSON object."))
        now = timezone.now()
        existing = session_player(request.session)
        # Only a room made (or refused as too many) is counted: a refused form counts nothing, and makes no
        # guest player.
        if existing is not None:
            refuse_bots(existing)  # a bot's rooms are made by the challenges it accepts
        room_create_check(host=existing, rules=request.data)
        rooms_create_quota_take(
            address=client_address(request), player_ids=[str(existing.id)] if existing else [], now=now
        )
        player = device_player(request, create_as=DEFAULT_GUEST_NAME)
        assert player is not None
        if existing is None:  # the device's first room counts for the player it just became (it fits)
            rooms_create_quota_take(address=None, player_ids=[str(player.id)], now=now)
        snapshot = room_create_shown(host=player, rules=dict(request.data), now=now)
        return Response(room_frame(snapshot, player_id=str(player.id)), status=status.HTTP_201_CREATED)


class RoomDetailView(APIView):
    @extend_schema(
        responses={
            200: OpenApiResponse(description="the room snapshot"),
            404: "no_room",
            410: "room_closed: the room was closed",
            429: "rate_limited (see the Retry-After header)",
        }
    )
    def get(self, request: Request, code: str) -> Response:
        """The room snapshot as this device sees it; 410 once the room is closed."""
        room_lookup_quota_take(address=client_address(request), now=timezone.now())
        snapshot = room_snapshot(code.upper(), include_closed=True)
        if snapshot is None:
            raise Refused("no_room", gettext("There is no open room %(code)s.") % {"code": code})
        if snapshot["closed_at"] is not None:
            raise room_closed_refusal(snapshot["code"])
        player = session_player(request.session)
        return Response(room_frame(snapshot, player_id=str(player.id) if player else None))


class SeatView(APIView):
    @extend_schema(
        operation_id="rooms_seat",
        request=None,
        responses={
            200: OpenApiResponse(description="the room snapshot, with you seated"),
            403: "bot_account",
            404: "no_room",
            409: "seat_taken",
            429: "rate_limited (a guest to make: see the Retry-After header)",
        },
    )
    def post(self, request: Request, code: str) -> Response:
        """Take the lowest free seat of a room (as from the lobby's open rooms); already seated: that seat.

        Creates a guest player for the device if it has none.
        """
        player = device_player(request, create_as=DEFAULT_GUEST_NAME)
        assert player is not None
        room_sit(code=code.upper(), player=player, now=timezone.now())
        snapshot = room_snapshot(code.upper())
        if snapshot is None:  # closed between the seat and the read
            raise Refused("no_room", gettext("There is no open room %(code)s.") % {"code": code})
        return Response(room_frame(snapshot, player_id=str(player.id)))



class LivePlayerOut(serializers.Serializer[Any]):
    player = serializers.DictField(help_text='{"id", "name"}')
    rating = serializers.DictField(help_text='{"rating", "rd", "provisional", "display"}')


class LiveGameOut(serializers.Serializer[Any]):
    code = serializers.CharField(help_text="The room: open /r/{code} to watch.")
    game = serializers.UUIDField()
    number = serializers.IntegerField(help_text="The game's number in its room.")
    ranked = serializers.BooleanField()
    turn_seconds = serializers.IntegerField(allow_null=True)
    started_at = serializers.DateTimeField()
    ply = serializers.IntegerField(help_text="Moves played so far.")
    moves = serializers.ListField(child=serializers.CharField(), help_text="Peg names in order, for a preview.")
    red = LivePlayerOut()
    yellow = LivePlayerOut()


class LiveGamesOut(serializers.Serializer[Any]):
    count = serializers.IntegerField(help_text="How many games are live.")
    limit = serializers.IntegerField()
    offset = serializers.IntegerField()
    results = LiveGameOut(many=True)


class LiveGamesQuery(serializers.Serializer[Any]):
    limit = serializers.IntegerField(required=False, default=20, min_value=1, max_value=100)
    offset = serializers.IntegerField(required=False, default=0, min_value=0, max_value=MAX_OFFSET)


class LiveGamesView(APIView):
    @extend_schema(
        operation_id="games_live", parameters=[LiveGamesQuery], responses={200: LiveGamesOut, 400: "bad_request"}
    )
    def get(self, request: Request) -> Response:
        """Games between two people being played now, best-rated first (the sum of both ratings)."""
        query = LiveGamesQuery(data=request.query_params)
        query.is_valid(raise_exception=True)  # else 400 bad_request
        return Response(live_games(now=timezone.now(), **query.validated_data))


class PlayingOut(serializers.Serializer[Any]):
    room = serializers.CharField()
    game = serializers.UUIDField()


class FriendPlayerOut(serializers.Serializer[Any]):
    id = serializers.UUIDField()
    name = serializers.CharField()
    rating = RatingFields()
    bot = serializers.BooleanField()


class FriendOut(serializers.Serializer[Any]):
    player = FriendPlayerOut()
    online = serializers.BooleanField(help_text="A page of theirs is open (a room, a game stream) on some process.")
    playing = PlayingOut(allow_null=True, help_text="The game they are playing now, to watch; null if none.")


class MyFollowingView(APIView):
    @extend_schema(operation_id="my_following", responses={200: FriendOut(many=True), 403: "no_account"})
    def get(self, request: Request) -> Response:
        """The accounts you follow, online first, then by name; who is online and what they play (at most
        1,000: as many as one may follow)."""
        me = refuse_guests(session_player(request.session))
        return Response(friends_of(me, now=timezone.now()))
