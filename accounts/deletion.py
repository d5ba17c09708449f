"""Closing an account (``DELETE /api/accounts/me``): what is erased at once, and the name freed later.

At once, in one transaction: the account is marked closed (:func:`players.services.player_close`: every app
ends what it has open through ``PLAYER_ENDED``: every open socket of the account, on every process, is
closed 4409 once committed, its bot streams end, its seeks, challenges and arena entries are withdrawn, its
games being played resigned (``lobby.play.moves.games_resign_for``, live and correspondence); and
from then on nobody finds, follows, challenges, notifies or pairs it), the password (so every session ends:
:func:`players.identity.session_player`) and the email address are erased, the account made inactive, its
access tokens revoked, its chat messages, follows and blocks (both ways) and notifications deleted, its
rating taken off the leaderboard (the rating row goes; the rating changes stay in the opponents'
histories), and the player renamed "deleted player": its games stay, for the opponents' records, under that
name. The username stays taken
``NAME_HELD_DAYS`` days (nobody can pass for the closed account at once), then :func:`names_free`
deletes the Django user, which frees it.
"""

from __future__ import annotations

import contextlib
import logging
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext

from accounts.models import AccountDeletion, AccountEmail
from common.errors import Refused
from lobby.models import ChatMessage, Room
from lobby.rooms.services import room_lock
from notifications.models import Notification
from players.models import AccessToken, Block, Follow, Player
from players.services import player_close, player_rename
from ratings.models import PlayerRating

log = logging.getLogger(__name__)

DELETED_NAME = "deleted player"
NAME_HELD_DAYS = 30


def account_delete(*, player: Player, password: object, now: datetime) -> None:
    """Close ``player``'s account (see the module docstring).

    Raises:
        Refused: no_account (a guest: nothing to close), bad_credentials (the password is wrong).
    """
    user = player.user
    if user is None:
        raise Refused("no_account", gettext("This player has no account to close."))
    if not isinstance(password, str) or not user.check_password(password):
        raise Refused("bad_credentials", gettext("That password is not this account's."))
    with transaction.atomic():
        # The locks in the house's order: the rooms the account sits in (by code), then its row. Taking a seat
        # locks its room, then the player (lobby.rooms.services.lock_joins_of); a closing that locked the
        # player first and resigned its games (locking their rooms) could wait on such a seat as it waits on it.
        sitting = Room.objects.filter(closed_at=None, seats__player=player).values_list("code", flat=True)
        for code in sorted(set(sitting)):
            with contextlib.suppress(Refused):  # closed meanwhile: nothing of it to lock
                room_lock(code)
        Player.objects.select_for_update().filter(pk=player.pk).first()
        player_close(player=player, now=now, message=gettext("This account was closed."))
        user.set_unusable_password()
        user.email, user.is_active = "", False
        user.save(update_fields=["password", "email", "is_active"])
        AccountEmail.objects.filter(player=player).delete()
        AccessToken.objects.filter(player=player, revoked_at__isnull=True).update(revoked_at=now)
        ChatMessage.objects.filter(player=player).delete()
        Follow.objects.filter(Q(follower=player) | Q(followed=player)).delete()
        Block.objects.filter(Q(blocker=player) | Q(blocked=player)).delete()
        Notification.objects.filter(player=player).delete()
        PlayerRating.objects.filter(player=player).delete()
        AccountDeletion.objects.create(player=player, deleted_at=now)
        player_rename(player=player, name=DELETED_NAME)
    log.info("account closed", extra={"player": str(player.pk)})


def names_free(*, now: datetime) -> int:
    """Free the usernames of the accounts closed ``NAME_HELD_DAYS`` days before ``now``; how many."""
    freed = 0
    due = AccountDeletion.objects.filter(name_freed_at__isnull=True,
                                         deleted_at__lte=now - timedelta(days=NAME_HELD_DAYS))
    for deletion in due.select_related("player")[:100]:
        with transaction.atomic():
            user_id = deletion.player.user_id
            Player.objects.filter(pk=deletion.player_id).update(user=None, username_key=None)
            if user_id is not None:
                User.objects.filter(pk=user_id).delete()
            AccountDeletion.objects.filter(pk=deletion.pk).update(name_freed_at=now)
        freed += 1
    return freed


def is_deleted(player: Player) -> bool:
    return AccountDeletion.objects.filter(player=player).exists()
