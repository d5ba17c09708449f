"""games.selectors.game_position: the position kept on a game instance is the one its record names, also
when the record is changed behind it (a move followed from another process, a takeback)."""

from __future__ import annotations

from datetime import UTC, datetime

from games.engine import Peg
from games.selectors import game_position, game_position_is
from games.services import game_new

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def test_the_kept_position_follows_the_record():
    game = game_new(room_id=1, number=1, red_seat=1, red_player_id=None, yellow_player_id=None, red_cpu=False,
                    yellow_cpu=False, cpu_level=3, ranked=False, turn_seconds=None, now=T0)
    first = game_position(game)
    assert game_position(game) is first  # kept: not replayed again
    game_position_is(game, first.play(Peg.from_name("a1")))
    assert game.record == "a1" and game_position(game).record() == "a1"
    game.record = "a1 b2"  # changed behind it
    assert game_position(game).record() == "a1 b2"
    game.record = ""
    assert game_position(game).ply == 0
