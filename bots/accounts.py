"""Bot accounts: an account with no rated game turns into a bot, for good."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from common.errors import Refused
from players.models import Player
from ratings.selectors import rated_games


def bot_upgrade(*, player: Player, now: datetime) -> Player:
    """Make ``player``'s account a bot: marked BOT wherever it is shown, playing challenges only (never
    quick pairing, the open rooms or arenas). There is no way back.

    Raises:
        Refused: account_required, already_bot, rated_games (the account has played a rated game: its
            rating was earned by a person).
    """
    if player.user_id is None:
        raise Refused("account_required", "Only an account can become a bot.")
    with transaction.atomic():
        locked = Player.objects.select_for_update().get(pk=player.pk)
        if locked.bot_at is not None:
            raise Refused("already_bot", "This account is a bot already.")
        if rated_games(player.pk):
            raise Refused("rated_games", "An account that has played rated games cannot become a bot.")
        locked.bot_at = now
        locked.save(update_fields=["bot_at"])
    player.bot_at = now
    return player
