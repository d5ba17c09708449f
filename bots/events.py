"""What the bot API tells accounts once a transaction commits: lines for their event streams, and the end
of the streams whose token was revoked or whose account was banned, closed or given a new password, through
the platform's one outlet (``live.events``), to the account's channel-layer group in whatever process holds
them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bots import protocol
from bots.messages import AccountLine, AccountStreamsEnd
from games.endings import GameFinished
from live import events
from live.events import Signal
from lobby.rooms.services import room_code
from players.services import PlayerEnded
from players.tokens import TokenRevoked


@dataclass(frozen=True, slots=True)
class ChallengeMade(Signal):
    """A challenge was made (once committed): this process's challenge sweep (:mod:`bots.sweep`) learns
    when it expires."""


def challenge_made_on_commit() -> None:
    """Once committed, have this process's challenge sweep read when the next challenge expires."""
    events.on_commit(ChallengeMade())


def line_on_commit(player_id: object, line: dict[str, Any]) -> None:
    """Once committed, send ``line`` to every event stream of ``player_id``'s account."""
    events.on_commit(events.ToGroup(protocol.account_group(player_id), AccountLine(line)))


def game_finished(finished: GameFinished) -> None:
    """A handler of ``games.endings.GAME_FINISHED``: both players' event streams hear ``gameFinish``
    (once the game's end has committed)."""
    players = {"red": finished.red_player_id, "yellow": finished.yellow_player_id}
    if not any(players.values()):
        return
    code = room_code(finished.room_id)
    winner = protocol.winner_colour(winner_seat=finished.winner_seat, red_seat=finished.red_seat)
    for colour, player_id in players.items():
        if player_id is None:
            continue
        line = protocol.game_finish_line(game_id=finished.game_id, room=code, colour=colour,
                                         status=finished.status, winner=winner, reason=finished.reason or None)
        events.deliver(events.ToGroup(protocol.account_group(player_id), AccountLine(line)))


def token_revoked(revoked: TokenRevoked) -> None:
    """A handler of ``players.tokens.TOKEN_REVOKED`` (after commit): the streams open with the token end."""
    events.deliver(events.ToGroup(protocol.account_group(revoked.player_id), AccountStreamsEnd(revoked.token_id)))


def player_ended(ended: PlayerEnded) -> None:
    """A handler of ``players.services.PLAYER_ENDED`` (inside the transaction of the ban, the closing or the
    new password): once it commits, every stream of the account ends, on every process (a bot whose token
    still holds opens it again)."""
    end = AccountStreamsEnd(None, ended.reason.value)
    events.on_commit(events.ToGroup(protocol.account_group(ended.player.pk), end))
