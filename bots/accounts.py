"""Bot accounts: an account that has never played a game turns into a bot, for good.

Like lichess, which upgrades only an account with no game at all: a bot's rating and record are its
engine's, so an account that has played as a person (rated or casual, finished or being played) stays one.
That also covers an upgrade in the middle of a game, which would carry a person's seat (and, in a ranked
game, a rating earned as a person) into a bot.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext

from common.errors import Refused
from games.models import Game
from players.models import Player
from ratings.selectors import rated_games


def bot_upgrade(*, player: Player, now: datetime) -> Player:
    """Make ``player``'s account a bot: marked BOT wherever it is shown, playing challenges only (never
    quick pairing, the open rooms or arenas). There is no way back.

    Raises:
        Refused: account_required, already_bot, games_played (the account has played a game, or is playing
            one: its games and rating are a person's).
    """
    if player.user_id is None:
        raise Refused("account_required", gettext("Only an account can become a bot."))
    with transaction.atomic():
        locked = Player.objects.select_for_update().get(pk=player.pk)
        if locked.bot_at is not None:
            raise Refused("already_bot", gettext("This account is a bot already."))
        if rated_games(player.pk) or _has_played(player):
            raise Refused("games_played", gettext("An account that has played games cannot become a bot."))
        locked.bot_at = now
        locked.save(update_fields=["bot_at"])
    player.bot_at = now
    return player


def _has_played(player: Player) -> bool:
    """Whether ``player`` held a person's seat in any game (the CPU's seats are not theirs)."""
    return Game.objects.filter(Q(red_player=player, red_cpu=False) | Q(yellow_player=player, yellow_cpu=False)).exists()
