"""REST endpoints of the lobby: the device's player, rooms, taking a seat, and the live games.
Views only translate HTTP; a refusal is raised and answered by the API's handler (``config.api``)."""

from __future__ import annotations

from typing import Any

from django.middleware.csrf import get_token
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
from players.models import Player
from players.selectors import player_json
from players.services import player_create, player_rename, refuse_bots
from players.social import refuse_guests
from ratings.selectors import current_rating, rating_json, ratings_of
from ratings.views import PlayerRefOut, RatingFields

DEFAULT_GUEST_NAME = "Guest"


def session_json(player: Player | None, *, new: bool = False) -> dict[str, Any]:
    """What ``/api/session`` says of the device's player: who, their rating, account, and rooms.

    A device without a player yet (a first visit, or after logging out) is a normal state: the same
    fields, ``player``, ``rating`` and ``username`` null and no rooms. A ``new`` player (just made) has
    the first rating and no rooms: nothing is read for them.
    """
    if player is None:
        return {"player": None, "rating": None, "username": None, "rooms": []}
    rating = current_rating(None, now=timezone.now()) if new else ratings_of([player.id], now=timezone.now())[player.id]
    return {
        "player": player_json(player),
        "rating": rating_json(rating),
        "username": player.user.username if player.user is not None else None,
        "rooms": [] if new else player_rooms(player),
    }


def device_player(request: Request, *, create_as: str | None = None) -> Player | None:
    """The device's player; with ``create_as``, one is created under that name when missing."""
    player = session_player(request.session)
    if player is None and create_as is not None:
        player = player_create(name=create_as, now=timezone.now())
        session_attach(request.session, player)
    return player


class SessionIn(serializers.Serializer[Any]):
    name = serializers.CharField(required=False, allow_blank=True, max_length=200)


class SessionRoomOut(serializers.Serializer[Any]):
    code = serializers.CharField()
    seat = serializers.IntegerField()
    playing = serializers.BooleanField(help_text="A game is being played in the room.")


class SessionOut(serializers.Serializer[Any]):
    player = PlayerRefOut(allow_null=True, help_text="The device's player; null before it has one.")
    rating = RatingFields(allow_null=True, help_text="The player's rating now; null without a player.")
    username = serializers.CharField(allow_null=True, help_text="The account's username; null for a guest.")
    rooms = SessionRoomOut(many=True, help_text="Open rooms where the player has a seat, most recent first.")


class SessionView(APIView):
    """The device's player. GET also hands out the ``csrftoken`` cookie that writes need."""

    @extend_schema(responses={200: SessionOut})
    def get(self, request: Request) -> Response:
        """This device's player, rating, account and rooms; ``player`` is null before it has one."""
        get_token(request)
        return Response(session_json(session_player(request.session)))

    @extend_schema(request=SessionIn, responses={200: SessionOut, 201: SessionOut})
    def post(self, request: Request) -> Response:
        if not isinstance(request.data, dict):
            raise Refused("bad_request", gettext('Send {"name": "..."}.'))
        name = request.data.get("name")
        existing = session_player(request.session)
        if existing is None:
            player = player_create(name=DEFAULT_GUEST_NAME if name is None else name, now=timezone.now())
            session_attach(request.session, player)
            code: int = status.HTTP_201_CREATED
        else:
            player = existing if name is None else player_rename(player=existing, name=name)
            code = status.HTTP_200_OK
        get_token(request)
        return Response(session_json(player, new=existing is None), status=code)


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
