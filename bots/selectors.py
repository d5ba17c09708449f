"""Reads of the bot API: a game's first stream line, a player's games being played, its open challenges."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from bots import protocol
from bots.challenges import challenge_out, challenges_open, username_of
from bots.play import MyGame
from common.iso import iso
from games.models import Game, GameStatus
from lobby.protocol.snapshot import offers_json
from players.models import Player
from ratings.selectors import rating_json, ratings_of


def state_of(game: Game) -> dict[str, Any]:
    """The ``gameState`` line of ``game`` as its row stands."""
    playing = game.status == GameStatus.PLAYING
    return protocol.game_state(
        moves=game.record.split(), status=str(game.status),
        winner=protocol.winner_colour(winner_seat=game.winner_seat, red_seat=game.red_seat),
        reason=game.reason or None, deadline=iso(game.deadline) if playing else None,
        offers=offers_json(game), red_seat=game.red_seat,
    )


def game_full_line(mine: MyGame, *, now: datetime) -> dict[str, Any]:
    """The ``gameFull`` line of the player's game, read fresh."""
    game = Game.objects.select_related("red_player__user", "yellow_player__user").get(pk=mine.game.pk)
    people = [pid for pid in (game.red_player_id, game.yellow_player_id) if pid is not None]
    ratings = ratings_of(people, now=now)

    def side(player: Player | None, cpu: bool) -> dict[str, Any]:
        if player is None or cpu:
            return {"id": None, "name": "CPU", "title": None, "cpu": True}
        return protocol.player_json(player, rating=rating_json(ratings[player.pk]), username=username_of(player))

    return protocol.game_full(game=game, room=mine.code, red=side(game.red_player, game.red_cpu),
                              yellow=side(game.yellow_player, game.yellow_cpu), state=state_of(game))


def game_row(game_id: UUID | str) -> Game:
    return Game.objects.get(pk=game_id)


def event_stream_opening(*, player: Player, now: datetime) -> list[dict[str, Any]]:
    """What a new event stream says first: a ``gameStart`` for each game the player is playing now, and a
    ``challenge`` for each challenge waiting for an answer (sent or received)."""
    lines = []
    playing = Game.objects.select_related("room").filter(status=GameStatus.PLAYING)
    for colour, games in (("red", playing.filter(red_player=player, red_cpu=False)),
                          ("yellow", playing.filter(yellow_player=player, yellow_cpu=False))):
        lines += [protocol.game_start_line(game_id=str(g.pk), room=g.room.code, colour=colour) for g in games]
    lines += [protocol.challenge_line(challenge_out(c, now=now)) for c in challenges_open(player=player, now=now)]
    return lines
