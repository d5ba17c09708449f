"""Test kit for arenas: accounts, arenas, a wave run by hand, games played to their end."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from games.engine import Peg
from games.postgame import post_games_run
from lobby.models import Room
from lobby.pairing.waves import wave_claim, wave_end
from lobby.play.moves import game_drop, game_resign, room_move
from lobby.rooms.selectors import current_game, room_seats
from lobby.rooms.services import room_lock
from players.accounts import account_register
from players.models import Player
from players.services import player_create
from tournaments.models import Arena, ArenaGame
from tournaments.services import ArenaSpec, arena_add
from tournaments.waves import ArenaWave

PASSWORD = "correct horse battery"
# Red wins on a1 at ply 11 (after d4 filled alternately); yellow's moves are b1 b1 c1 in between.
RED_WINS_AT_11 = ["d4", "d4", "d4", "d4", "a1", "b1", "a1", "b1", "a1", "c1", "a1"]
# The same, with c4 filled alternately first: Red wins at ply 15 (long enough for berserk's point).
RED_WINS_AT_15 = ["c4", "c4", "c4", "c4", *RED_WINS_AT_11]
# Yellow wins on b1 at ply 12; Red's moves are a1 c1 a1 c1 in between (its last at ply 10).
YELLOW_WINS_AT_12 = ["d4", "d4", "d4", "d4", "a1", "b1", "c1", "b1", "a1", "b1", "c1", "b1"]
# Ten moves without a line: a1 and b1 filled alternately, then c2 twice.
TEN_QUIET = ["a1", "a1", "a1", "a1", "b1", "b1", "b1", "b1", "c2", "c2"]


def account(name: str, *, now: datetime | None = None) -> Player:
    now = now or timezone.now()
    return account_register(player=player_create(name=name.title(), now=now), username=name, password=PASSWORD,
                            now=now)


def guest(name: str) -> Player:
    """A guest player (no account): anyone may join an arena."""
    return player_create(name=name.title(), now=timezone.now())


def arena(*, minutes: int = 30, starts_at: datetime | None = None, berserk: bool = True, turn_seconds: int = 60,
          ranked: bool = True) -> Arena:
    now = timezone.now()
    spec = ArenaSpec(name="Evening arena", starts_at=starts_at, minutes=minutes, turn_seconds=turn_seconds,
                     ranked=ranked, berserk=berserk)
    return arena_add(spec=spec, starts_at=starts_at or now, creator=None, now=now)


def run_wave(arena_id: int, *, now: datetime | None = None) -> list[str]:
    """One whole wave (claimed, paired, written) as the arena loop runs it; [] if not claimed."""
    now = now or timezone.now()
    wave = ArenaWave(arena_id)
    lease = wave.lease(now=now)
    if not wave_claim(lease, now=now):
        return []
    try:
        return wave.write(wave.pair(wave.read(now=now), now=now), now=now)
    finally:
        wave_end(lease)


def sides(code: str) -> tuple[ArenaGame, Player, Player]:
    """The arena game being played in room ``code``, its Red and its Yellow."""
    row = ArenaGame.objects.select_related("red", "yellow", "game__room").get(game__room__code=code,
                                                                             scored_at=None)
    return row, row.red, row.yellow


def play(code: str, pegs: list[str], *, timeout_plies: tuple[int, ...] = (), now: datetime | None = None) -> None:
    """Play ``pegs`` in the room's game from its current ply; the plies in ``timeout_plies`` are played by
    the CPU for a timed-out player (as the ticker does), the others by the players; the post-game work of an
    end is done at once (as the post-game loop does it: the arena scores the game once it is done)."""
    now = now or timezone.now()
    _, red, yellow = sides(code)
    for peg in pegs:
        game = current_game(Room.objects.get(code=code))
        assert game is not None
        if game.ply in timeout_plies:
            with transaction.atomic():
                room = room_lock(code, changed_at=now)
                seat = game.to_move_seat
                assert seat is not None
                room_move(room, room_seats(room), game, Peg.from_name(peg), seat=seat, cpu_reason="timeout",
                          now=now, seat_changed=False)
        else:
            game_drop(code=code, player=red if game.ply % 2 == 0 else yellow, peg=peg, ply=game.ply, now=now)
        now += timedelta(milliseconds=10)
    post_games_run()


def resign(code: str, player: Player) -> None:
    game_resign(code=code, player=player, now=timezone.now())
    post_games_run()
