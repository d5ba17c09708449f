"""Games to analyse: two people in a room playing a given record through the real services."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from games.models import Game
from games.postgame import post_games_run
from lobby.play.moves import game_drop, game_start
from lobby.rooms.services import room_create, room_sit
from players.models import Player
from players.services import player_create

T0 = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
# Yellow's 6th move (c4) leaves Red's d1 open, and Red's next move (b2) misses it; Yellow then wins on d4.
BLUNDER_GAME = "a1 a4 b1 b4 c1 c4 b2 d4"


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def two_player_game(record: str = "", *, names: tuple[str, str] = ("Ann", "Bob")) -> tuple[str, Player, Player, Game]:
    """Ann (red) and Bob (yellow) in a new room; ``record`` played, alternately, and the post-game work of its
    end done if it ended (as the post-game loop does it, at once); returns (code, ann, bob, game)."""
    ann = player_create(name=names[0], now=T0)
    bob = player_create(name=names[1], now=T0)
    code = room_create(host=ann, rules={}, now=T0).code
    room_sit(code=code, player=bob, now=T0)
    game = game_start(code=code, player=ann, now=T0)
    for ply, peg in enumerate(record.split()):
        mover = ann if ply % 2 == 0 else bob
        game = game_drop(code=code, player=mover, peg=peg, ply=ply, now=at(ply + 1))
    post_games_run()
    game.refresh_from_db()
    return code, ann, bob, game
