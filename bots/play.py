"""A bot's (or any token holder's) actions in one of its games: a move, a chat message, a resignation.

Each goes through the very service a person's room socket uses (``lobby.play.moves.game_drop``,
``game_resign``, ``lobby.chat.services.chat_say``), with the same refusals; nothing here writes a game.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from django.utils.translation import gettext

from bots.protocol import CHAT_ROOMS
from common.errors import Refused
from games.models import Game, GameStatus
from lobby.chat.services import chat_say
from lobby.play import moves, offers
from players.models import Player


@dataclass(frozen=True, slots=True)
class MyGame:
    """A game of the player asking: its room's code, the row as read, and the player's colour."""

    code: str
    game: Game
    colour: str


def my_game(*, game_id: str, player: Player) -> MyGame:
    """The game ``game_id`` that ``player`` plays (being played or over).

    Raises:
        Refused: no_game (no such game), not_your_game (``player`` plays neither colour in it).
    """
    try:
        pk = uuid.UUID(str(game_id))
    except ValueError:
        raise Refused("no_game", gettext("There is no such game.")) from None
    game = Game.objects.select_related("room").filter(pk=pk).first()
    if game is None:
        raise Refused("no_game", gettext("There is no such game."))
    if player.pk == game.red_player_id and not game.red_cpu:
        return MyGame(code=game.room.code, game=game, colour="red")
    if player.pk == game.yellow_player_id and not game.yellow_cpu:
        return MyGame(code=game.room.code, game=game, colour="yellow")
    raise Refused("not_your_game", gettext("You do not play in this game."))


def _playing(mine: MyGame) -> None:
    if mine.game.status != GameStatus.PLAYING:
        raise Refused("game_over", gettext("The game is over."))


def bot_move(*, game_id: str, player: Player, peg: str, ply: int | None, now: datetime) -> Game:
    """``player`` drops a bead on ``peg`` in their game ``game_id``. ``ply``: the number of moves they saw
    (refused with ``stale`` if the game moved on); without it, the game's ply now (a second move on the
    same ply is then refused with ``not_your_turn``).

    Raises:
        Refused: no_game, not_your_game, game_over, bad_peg, not_your_turn, stale, peg_full.
    """
    mine = my_game(game_id=game_id, player=player)
    _playing(mine)
    return moves.game_drop(code=mine.code, player=player, peg=peg, ply=mine.game.ply if ply is None else ply, now=now)


def bot_resign(*, game_id: str, player: Player, now: datetime) -> Game:
    """``player`` resigns their game ``game_id``.

    Raises:
        Refused: no_game, not_your_game, game_over.
    """
    mine = my_game(game_id=game_id, player=player)
    _playing(mine)
    return moves.game_resign(code=mine.code, player=player, now=now)


def bot_draw(*, game_id: str, player: Player, yes: bool, now: datetime) -> Game:
    """``player`` offers or accepts a draw in their game ``game_id`` (``yes``; accepting when the
    opponent's offer stands), or declines the opponent's offer (not ``yes``), as the room socket's
    ``draw`` frame does.

    Raises:
        Refused: no_game, not_your_game, game_over, not_allowed, offer_limited, no_offer.
    """
    mine = my_game(game_id=game_id, player=player)
    _playing(mine)
    return offers.game_offer(code=mine.code, player=player, kind="draw", action="offer" if yes else "decline",
                             now=now)


def bot_chat(*, game_id: str, player: Player, room: object, text: object, now: datetime,
             address: str | None = None) -> None:
    """``player`` writes ``text`` in the ``player`` or ``spectator`` chat of their game's room, counted against
    the client ``address`` too when given (as a page's socket is).

    Raises:
        Refused: no_game, not_your_game, bad_chat, and the chat's own (not_allowed, empty, too_long,
            rate_limited).
    """
    mine = my_game(game_id=game_id, player=player)
    if not isinstance(room, str) or room not in CHAT_ROOMS:  # a list or object is no key of it
        raise Refused("bad_chat", gettext('The chat room is "player" or "spectator".'))
    if not isinstance(text, str):
        raise Refused("empty", gettext("Write something first: a message cannot be empty."))
    chat_say(code=mine.code, player=player, chat=CHAT_ROOMS[str(room)], text=text, phrase=None, now=now,
             address=address)
