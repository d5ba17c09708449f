"""Test kit for ratings: two people in a room, games played through the real services at fixed instants."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from games.models import Game
from games.postgame import post_games_run
from lobby.play.automatic import game_cpu_move, game_due_job
from lobby.play.moves import game_drop, game_start
from lobby.rooms.services import room_create, room_sit
from lobby.timers import games_claim_due
from players.models import Player
from players.services import player_create

T0 = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
RED_WINS = "a1 b1 a1 b1 a1 b1 a1"  # red stacks four on a1
YELLOW_WINS = "a1 b1 a1 b1 a1 b1 c1 b1"  # yellow stacks four on b1


def at(seconds: float = 0, *, days: float = 0) -> datetime:
    return T0 + timedelta(days=days, seconds=seconds)


@dataclass
class Table:
    """A room with Ann (host, seat 1) and, unless solo, Bob (seat 2)."""

    code: str
    ann: Player
    bob: Player

    def seat_player(self, number: int) -> Player:
        return self.ann if number == 1 else self.bob

    def start(self, *, now: datetime) -> Game:
        return game_start(code=self.code, player=self.ann, now=now)

    def red_and_yellow(self, game: Game) -> tuple[Player, Player]:
        red = self.seat_player(game.red_seat)
        return red, (self.bob if red == self.ann else self.ann)

    def play(self, game: Game, record: str, *, now: datetime) -> Game:
        """Play ``record`` from the game's start, red first; each move a second after the last.

        A CPU seat's moves go through the ticker's path (claim, job, move) with the record's peg. The post-game
        work of the end is done at once, as the post-game loop would do it.
        """
        red, yellow = self.red_and_yellow(game)
        for ply, peg in enumerate(record.split()):
            moment = now + timedelta(seconds=ply)
            if (game.red_cpu, game.yellow_cpu)[ply % 2]:
                cpu_move(game, peg, now=moment)
            else:
                who = red if ply % 2 == 0 else yellow
                game_drop(code=self.code, player=who, peg=peg, ply=ply, now=moment)
        post_games_run()
        game.refresh_from_db()
        return game


def cpu_move(game: Game, peg: str, *, now: datetime) -> None:
    assert games_claim_due(now=now, lease=timedelta(seconds=15)) == [str(game.id)]
    job = game_due_job(game_id=str(game.id), now=now)
    assert job is not None
    assert game_cpu_move(job=job, peg=peg, now=now)


def make_table(*, ranked: bool = True, solo: bool = False, now: datetime = T0, names: tuple[str, str] = ("Ann", "Bob"),
               **rules: object) -> Table:
    ann = player_create(name=names[0], now=now)
    bob = player_create(name=names[1], now=now)
    room = room_create(host=ann, rules={"ranked": ranked, **rules}, now=now)
    if not solo:
        room_sit(code=room.code, player=bob, now=now)
    return Table(code=room.code, ann=ann, bob=bob)


def play_game(table: Table, record: str, *, now: datetime) -> Game:
    """Start the next game at ``now`` and play ``record`` in it."""
    return table.play(table.start(now=now), record, now=now)
