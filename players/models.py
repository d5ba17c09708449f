"""What is stored of people: a player is a device's guest, or an account once they register."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class Player(models.Model):
    """A person: a device's guest player, turned into an account when they register."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=40)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    )
    created_at = models.DateTimeField()
    # Set by a moderator: the player's websockets are closed and new ones refused until it is cleared.
    banned_at = models.DateTimeField(null=True, blank=True)
    # When the account was closed (``accounts.deletion``), for good: nobody finds, follows, challenges,
    # notifies or pairs it any more; its games stay under "deleted player".
    closed_at = models.DateTimeField(null=True, blank=True, editable=False)
    # The account's username in the form two spellings of one name share (NFKC, casefolded): unique, so
    # "Ann", "ANN" and a fullwidth "Ann" are one account. Set by players.accounts; None for a guest.
    username_key = models.CharField(max_length=150, null=True, blank=True, unique=True, editable=False)
    # When the account became a bot (``bots.accounts.bot_upgrade``), for good: it plays challenges only,
    # through the bot API, and is marked BOT wherever its name is shown (:attr:`title`).
    bot_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        # The table kept the name it had when players lived in the lobby app (moved without copying rows).
        db_table = "lobby_player"
        # A search by name prefix (players.social.players_search: LIKE 'prefix%') on PostgreSQL, whatever
        # the database's collation; elsewhere a plain index.
        indexes = [models.Index(fields=["username_key"], name="player_username_prefix",
                                opclasses=["varchar_pattern_ops"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.id})"

    @property
    def is_banned(self) -> bool:
        return self.banned_at is not None

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None

    @property
    def is_bot(self) -> bool:
        return self.bot_at is not None

    @property
    def title(self) -> str | None:
        """The title shown before the name (``"BOT"`` for a bot account, as lichess shows it), or None."""
        return "BOT" if self.bot_at is not None else None


class AccessToken(models.Model):
    """A personal access token of an account (``players.tokens``): what a script or a bot sends as
    ``Authorization: Bearer <secret>``. Only the SHA-256 of the secret is stored (the secret is shown once,
    when made; it is random, so a fast hash is enough, as for any API key); ``hint`` is its last
    characters, to tell tokens apart in a list. A revoked token is kept (``revoked_at``), never valid again.
    """

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="tokens")
    description = models.CharField(max_length=60)
    digest = models.CharField(max_length=64, unique=True)
    hint = models.CharField(max_length=4)
    created_at = models.DateTimeField()
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["player", "revoked_at"])]

    def __str__(self) -> str:
        return f"token {self.pk} of {self.player_id} (…{self.hint})"


class Follow(models.Model):
    """``follower`` follows ``followed`` (both accounts): the follower's friends list shows them."""

    follower = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="following")
    followed = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="followers")
    created_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
            models.CheckConstraint(condition=~models.Q(follower=models.F("followed")), name="follow_not_self"),
        ]
        indexes = [models.Index(fields=["followed", "follower"])]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followed_id}"


class Block(models.Model):
    """``blocker`` blocked ``blocked`` (the blocker is an account): no challenges, follows, pairings or chat
    from the blocked one reach the blocker; the blocked one is not told."""

    blocker = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="blocking")
    blocked = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="blocked_by")
    created_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(condition=~models.Q(blocker=models.F("blocked")), name="block_not_self"),
        ]
        indexes = [models.Index(fields=["blocked", "blocker"])]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"


class Preferences(models.Model):
    """A player's settings at the board (``players.preferences``): an account's follow it to every device,
    a guest's stay with the guest's player. Only what differs from the defaults is stored (``values``).
    A row of its own, so that the player rows every move reads stay as narrow as they were."""

    player = models.OneToOneField(Player, primary_key=True, on_delete=models.CASCADE, related_name="+")
    values = models.JSONField(default=dict, blank=True)
    updated_at = models.DateTimeField()
