"""People between themselves: following (a friends list) and blocking, and finding an account by name.

Following and blocking are for accounts (a guest's player lives on one device): a follow joins two
accounts; a block is made by an account against any player, guest or account, since guests chat and
challenge too. A block ends the follows between the two, both ways, and from then on the blocked player
cannot follow or challenge the blocker, is not paired with them (quick pairing never, an arena only when
nobody else is left), and what they write in a room's chat reaches none of the blocker's devices. The
blocked player is not told: what they are refused says no more than "this player does not accept ... from
you".

Every change is one transaction holding both players' rows (locked in one order), so a follow and a block
of the same two never both commit half-seen. The layers above hear of a change through two hooks, never
imported here, both inside the change's transaction: :data:`FOLLOWED` (the followed account's ``followed``
notification, made once as the follow is) and :data:`BLOCKS_CHANGED` (the blocker's open room sockets
re-read whom they hide once it commits).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils.formats import number_format
from django.utils.translation import gettext, gettext_lazy

from common.errors import Refused
from common.hooks import Hook, OnError, Runs
from players.accounts import username_key
from players.models import Block, Follow, Player

# How many accounts one account may follow, and block (every list stays capped).
MAX_FOLLOWING = 1000
MAX_BLOCKED = 1000
# How many accounts a search answers at most, and the longest prefix it takes (a username's length).
SEARCH_LIMIT = 10
SEARCH_MAX_CHARS = 24

# What a blocked player is told, and no more.
NOT_ACCEPTED_CHALLENGE = gettext_lazy("This player does not accept challenges from you.")
NOT_ACCEPTED_FOLLOW = gettext_lazy("This player does not accept follows from you.")


@dataclass(frozen=True, slots=True)
class Followed:
    """``follower`` began following ``followed`` at ``at`` (a new follow, not one that was already there)."""

    follower: Player
    followed: Player
    at: datetime


@dataclass(frozen=True, slots=True)
class BlocksChanged:
    """``blocker`` blocked ``blocked`` (``blocking``) or lifted that block, at ``at``: whom their devices
    hide changed."""

    blocker: Player
    blocked: Player
    blocking: bool
    at: datetime


# Inside the follow's transaction: its notification is stored with it (once, as the follow row is).
FOLLOWED: Hook[Followed] = Hook("followed", runs=Runs.INSIDE_TRANSACTION, on_error=OnError.PROPAGATE)
# Inside the transaction: the blocker's sockets are told once it commits (the lobby queues that).
BLOCKS_CHANGED: Hook[BlocksChanged] = Hook("blocks changed", runs=Runs.INSIDE_TRANSACTION,
                                           on_error=OnError.PROPAGATE)


# --- who may follow and block ------------------------------------------------------------------------
def refuse_guests(player: Player | None) -> Player:
    """``player``, an account.

    Raises:
        Refused(no_account): no player, or a guest.
    """
    if player is None or player.user_id is None:
        raise Refused("no_account", gettext("Following and blocking need an account: register or log in first."))
    return player


def player_named(player_id: object, *, account: bool) -> Player:
    """The player ``player_id`` names (an open account when ``account``).

    Raises:
        Refused(no_player): not a player id, no such player, or not an open account when one is needed.
    """
    try:
        pk = uuid.UUID(str(player_id)[:40])
    except ValueError:
        raise Refused("no_player", gettext("There is no such player.")) from None
    rows = Player.objects.filter(pk=pk)
    found = (rows.filter(user__isnull=False, closed_at=None) if account else rows).first()
    if found is None:
        raise Refused("no_player",
                      gettext("There is no such account.") if account else gettext("There is no such player."))
    return found


def _lock_both(a: Player, b: Player) -> None:
    """Lock both players' rows, in id order (every change of a pair takes them so: no deadlock)."""
    list(Player.objects.select_for_update().filter(pk__in=[a.pk, b.pk]).order_by("pk").values_list("pk", flat=True))


# --- follows -----------------------------------------------------------------------------------------
def follow_add(*, follower: Player | None, followed_id: object, now: datetime) -> bool:
    """``follower`` follows the account ``followed_id``; returns whether the follow is new (following
    twice is no error). :data:`FOLLOWED`'s handlers run in the transaction of a new one.

    Raises:
        Refused: no_account (the follower is a guest), no_player, self_follow, blocked (either blocked the
            other), too_many_follows (``MAX_FOLLOWING`` already).
    """
    me = refuse_guests(follower)
    them = player_named(followed_id, account=True)
    if them.pk == me.pk:
        raise Refused("self_follow", gettext("You cannot follow yourself."))
    with transaction.atomic():
        _lock_both(me, them)
        if Block.objects.filter(blocker=them, blocked=me).exists():
            raise Refused("blocked", str(NOT_ACCEPTED_FOLLOW))
        if Block.objects.filter(blocker=me, blocked=them).exists():
            raise Refused("blocked", gettext("You blocked this player: unblock them to follow them."))
        if Follow.objects.filter(follower=me, followed=them).exists():
            return False
        if Follow.objects.filter(follower=me).count() >= MAX_FOLLOWING:
            raise Refused("too_many_follows", gettext("You follow %(most)s players already: unfollow some first.")
                          % {"most": number_format(MAX_FOLLOWING, force_grouping=True)})
        Follow.objects.create(follower=me, followed=them, created_at=now)
        FOLLOWED.emit(Followed(follower=me, followed=them, at=now))
    return True


def follow_remove(*, follower: Player | None, followed_id: object) -> bool:
    """``follower`` stops following ``followed_id``; returns whether they did follow.

    Raises:
        Refused: no_account, no_player.
    """
    me = refuse_guests(follower)
    them = player_named(followed_id, account=True)
    return bool(Follow.objects.filter(follower=me, followed=them).delete()[0])


# --- blocks ------------------------------------------------------------------------------------------
def block_add(*, blocker: Player | None, blocked_id: object, now: datetime) -> bool:
    """``blocker`` blocks the player ``blocked_id`` (guest or account); returns whether the block is new.
    The follows between the two end, both ways; :data:`BLOCKS_CHANGED`'s handlers run in the transaction.

    Raises:
        Refused: no_account, no_player, self_block, too_many_blocks (``MAX_BLOCKED`` already).
    """
    me = refuse_guests(blocker)
    them = player_named(blocked_id, account=False)
    if them.pk == me.pk:
        raise Refused("self_block", gettext("You cannot block yourself."))
    with transaction.atomic():
        _lock_both(me, them)
        if Block.objects.filter(blocker=me, blocked=them).exists():
            return False
        if Block.objects.filter(blocker=me).count() >= MAX_BLOCKED:
            raise Refused("too_many_blocks", gettext("You block %(most)s players already: unblock some first.")
                          % {"most": number_format(MAX_BLOCKED, force_grouping=True)})
        Block.objects.create(blocker=me, blocked=them, created_at=now)
        Follow.objects.filter(Q(follower=me, followed=them) | Q(follower=them, followed=me)).delete()
        BLOCKS_CHANGED.emit(BlocksChanged(blocker=me, blocked=them, blocking=True, at=now))
    return True


def block_remove(*, blocker: Player | None, blocked_id: object, now: datetime) -> bool:
    """``blocker`` lifts their block of ``blocked_id``; returns whether there was one (follows that the
    block ended stay ended).

    Raises:
        Refused: no_account, no_player.
    """
    me = refuse_guests(blocker)
    them = player_named(blocked_id, account=False)
    with transaction.atomic():
        if not Block.objects.filter(blocker=me, blocked=them).delete()[0]:
            return False
        BLOCKS_CHANGED.emit(BlocksChanged(blocker=me, blocked=them, blocking=False, at=now))
    return True


# --- reads ---------------------------------------------------------------------------------------------
def following_of(player: Player) -> list[Player]:
    """The accounts ``player`` follows (at most ``MAX_FOLLOWING``), by name."""
    rows = Player.objects.filter(followers__follower=player).order_by("name", "pk")
    return list(rows[:MAX_FOLLOWING])


def blocked_of(player: Player) -> list[Player]:
    """The players ``player`` blocked (at most ``MAX_BLOCKED``), by name."""
    return list(Player.objects.filter(blocked_by__blocker=player).order_by("name", "pk")[:MAX_BLOCKED])


def follow_counts(player: Player) -> dict[str, int]:
    """``{"followers": n, "following": n}`` of ``player``."""
    return {"followers": Follow.objects.filter(followed=player).count(),
            "following": Follow.objects.filter(follower=player).count()}


def relation_of(viewer: Player | None, player: Player) -> dict[str, bool]:
    """What ``viewer`` did about ``player``: ``{"following": bool, "blocked": bool}`` (both false for
    nobody, or for themself)."""
    if viewer is None or viewer.pk == player.pk:
        return {"following": False, "blocked": False}
    return {"following": Follow.objects.filter(follower=viewer, followed=player).exists(),
            "blocked": Block.objects.filter(blocker=viewer, blocked=player).exists()}


def hidden_by(player: Player | None) -> frozenset[str]:
    """The ids of the players ``player`` blocked (whose chat their devices do not receive); no query for a
    guest (only accounts block)."""
    if player is None or player.user_id is None:
        return frozenset()
    ids = Block.objects.filter(blocker=player).values_list("blocked_id", flat=True)[:MAX_BLOCKED]
    return frozenset(str(pk) for pk in ids)


def apart_among(player_ids: Iterable[uuid.UUID | str]) -> dict[str, frozenset[str]]:
    """For each of these players that one of the others blocked or was blocked by: those others (one
    query). A player kept apart from nobody is not listed."""
    ids = {str(pk) for pk in player_ids}
    if len(ids) < 2:
        return {}
    apart: dict[str, set[str]] = {}
    for blocker, blocked in Block.objects.filter(blocker_id__in=list(ids)).values_list("blocker_id", "blocked_id"):
        a, b = str(blocker), str(blocked)
        if b in ids:
            apart.setdefault(a, set()).add(b)
            apart.setdefault(b, set()).add(a)
    return {player_id: frozenset(others) for player_id, others in apart.items()}


def is_blocked(*, blocker_id: uuid.UUID, blocked_id: uuid.UUID) -> bool:
    """Whether ``blocker_id`` blocked ``blocked_id``."""
    return Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id).exists()


def refuse_blocked_challenge(*, challenger: Player, dest: Player) -> None:
    """For a challenge: the challenged must not have blocked the challenger.

    Raises:
        Refused(blocked): they did (the sentence says no more than that they do not accept it).
    """
    if is_blocked(blocker_id=dest.pk, blocked_id=challenger.pk):
        raise Refused("blocked", str(NOT_ACCEPTED_CHALLENGE))


def players_search(query: object) -> list[Player]:
    """At most ``SEARCH_LIMIT`` accounts whose username starts with ``query`` in the usernames' one form
    (NFKC, casefolded: ``ANN`` finds ``ann``, and so does its fullwidth form), by username; bots included, rated
    games or not; a closed account never.

    Raises:
        Refused(bad_query): not a text of 1 to ``SEARCH_MAX_CHARS`` characters after trimming.
    """
    text = query.strip() if isinstance(query, str) else ""
    if not text or len(text) > SEARCH_MAX_CHARS:
        raise Refused("bad_query", gettext("Search with 1 to %(most)s characters of a name.")
                      % {"most": SEARCH_MAX_CHARS})
    rows = Player.objects.select_related("user").filter(username_key__startswith=username_key(text),
                                                        user__isnull=False, closed_at=None)
    return list(rows.order_by("username_key")[:SEARCH_LIMIT])
