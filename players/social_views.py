"""REST endpoints of follows, blocks and the search for a player (docs/protocol.md, "People"). Views only
translate HTTP: the rules are :mod:`players.social`'s, the quotas :mod:`players.limits`'. The friends list
with who is online and playing is the lobby's (``lobby.rooms.people_views``): it knows the rooms.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from players import social
from players.identity import client_address, session_player
from players.limits import search_quota_take, social_write_quota_take
from players.models import Player

PLAYER_ID = OpenApiParameter("player_id", str, OpenApiParameter.PATH, description="The player's id (UUID).")


class RelationOut(serializers.Serializer[Any]):
    following = serializers.BooleanField(help_text="You follow this player.")
    blocked = serializers.BooleanField(help_text="You blocked this player.")
    followers = serializers.IntegerField(help_text="How many follow this player.")


class FoundOut(serializers.Serializer[Any]):
    id = serializers.UUIDField()
    name = serializers.CharField()
    username = serializers.CharField()
    bot = serializers.BooleanField()


class BlockedOut(serializers.Serializer[Any]):
    player = FoundOut()


def found_json(player: Player) -> dict[str, Any]:
    """An account as a search or a list shows it: id, name, username, and whether it is a bot."""
    username = player.user.username if player.user is not None else None
    return {"id": str(player.id), "name": player.name, "username": username, "bot": player.is_bot}


def relation_json(viewer: Player | None, player: Player) -> dict[str, Any]:
    return {**social.relation_of(viewer, player), "followers": social.follow_counts(player)["followers"]}


def _writer(request: Request) -> Player:
    """The session's account, counted against the quota of follow and block changes.

    Raises:
        Refused: no_account; RateLimited.
    """
    player = social.refuse_guests(session_player(request.session))
    social_write_quota_take(player_id=str(player.pk), address=client_address(request), now=timezone.now())
    return player


class FollowView(APIView):
    @extend_schema(operation_id="players_follow_show", parameters=[PLAYER_ID],
                   responses={200: RelationOut, 404: "no_player"})
    def get(self, request: Request, player_id: str) -> Response:
        """Whether you follow and block this player, and how many follow them."""
        return Response(relation_json(session_player(request.session), social.player_named(player_id, account=False)))

    @extend_schema(operation_id="players_follow", parameters=[PLAYER_ID], request=None,
                   responses={200: RelationOut, 400: "self_follow, too_many_follows",
                              403: "no_account, blocked", 404: "no_player", 429: "rate_limited"})
    def post(self, request: Request, player_id: str) -> Response:
        """Follow this account (following it again changes nothing)."""
        me = _writer(request)
        social.follow_add(follower=me, followed_id=player_id, now=timezone.now())
        return Response(relation_json(me, social.player_named(player_id, account=False)))

    @extend_schema(operation_id="players_unfollow", parameters=[PLAYER_ID], request=None,
                   responses={200: RelationOut, 403: "no_account", 404: "no_player", 429: "rate_limited"})
    def delete(self, request: Request, player_id: str) -> Response:
        """Stop following this account (not following it is no error)."""
        me = _writer(request)
        social.follow_remove(follower=me, followed_id=player_id)
        return Response(relation_json(me, social.player_named(player_id, account=False)))


class BlockView(APIView):
    @extend_schema(operation_id="players_block", parameters=[PLAYER_ID], request=None,
                   responses={200: RelationOut, 400: "self_block, too_many_blocks", 403: "no_account",
                              404: "no_player", 429: "rate_limited"})
    def post(self, request: Request, player_id: str) -> Response:
        """Block this player (a guest or an account): the follows between you end, they cannot challenge
        or follow you, are not paired with you, and their chat reaches none of your devices. They are not
        told."""
        me = _writer(request)
        social.block_add(blocker=me, blocked_id=player_id, now=timezone.now())
        return Response(relation_json(me, social.player_named(player_id, account=False)))

    @extend_schema(operation_id="players_unblock", parameters=[PLAYER_ID], request=None,
                   responses={200: RelationOut, 403: "no_account", 404: "no_player", 429: "rate_limited"})
    def delete(self, request: Request, player_id: str) -> Response:
        """Lift your block of this player."""
        me = _writer(request)
        social.block_remove(blocker=me, blocked_id=player_id, now=timezone.now())
        return Response(relation_json(me, social.player_named(player_id, account=False)))


class MyBlockedView(APIView):
    @extend_schema(operation_id="my_blocked", responses={200: BlockedOut(many=True), 403: "no_account"})
    def get(self, request: Request) -> Response:
        """The players you blocked, by name (at most 1,000: as many as one may block)."""
        me = social.refuse_guests(session_player(request.session))
        return Response([{"player": found_json(player)} for player in social.blocked_of(me)])


class PlayerSearchView(APIView):
    @extend_schema(
        operation_id="players_search",
        parameters=[OpenApiParameter("q", str, OpenApiParameter.QUERY, required=True,
                                     description="The start of a username (1 to 24 characters; any case).")],
        responses={200: FoundOut(many=True), 400: "bad_query", 429: "rate_limited"},
    )
    def get(self, request: Request) -> Response:
        """At most 10 accounts whose username starts with ``q`` (compared as usernames are: NFKC and
        casefolded), by username; bots are marked, and found whether or not they played."""
        search_quota_take(address=client_address(request), now=timezone.now())
        return Response([found_json(player) for player in social.players_search(request.query_params.get("q"))])
