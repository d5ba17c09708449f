"""Who may read which of a room's chats: decided per connection, from the latest snapshot it was sent.

The seated read the spectators' chat only between games (no coaching from the audience); nobody reads
it while the host has turned it off.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lobby.protocol.room import PLAYERS, SPECTATORS


@dataclass(frozen=True, slots=True)
class ChatView:
    """What one connection knows of its room, from the latest snapshot it was sent: enough to decide
    which chats it may read, and whether a message reaching it now may be shown.

    Attributes:
        seated: the connection's player sits in one of the room's seats.
        game_number: the number of the room's latest game, or None before the first.
        playing: that game is being played.
        spectator_chat: the house rule: the spectators' chat is on.
    """

    seated: bool
    game_number: int | None
    playing: bool
    spectator_chat: bool

    @classmethod
    def from_snapshot(cls, snapshot: dict[str, Any], *, player_id: str | None) -> ChatView:
        game = snapshot.get("game")
        seated = player_id is not None and any(
            seat["player"] is not None and seat["player"]["id"] == player_id for seat in snapshot["seats"]
        )
        return cls(
            seated=seated,
            game_number=game["number"] if game is not None else None,
            playing=game is not None and game["status"] == "playing",
            spectator_chat=bool(snapshot["rules"].get("spectator_chat", True)),
        )

    def reads(self) -> frozenset[str]:
        """The chats this connection may read now."""
        spectators = self.spectator_chat and not (self.seated and self.playing)
        return frozenset((PLAYERS, SPECTATORS) if spectators else (PLAYERS,))

    def delivers(self, *, chat: str, written_in_game: int | None) -> bool:
        """Whether a new message in ``chat`` (a spectators' one written during game number
        ``written_in_game``, or None between games) may be sent to this connection now.

        A seated connection that has not yet seen the game a spectators' message was written in
        start (its snapshot lags behind the writer's) does not show it now: it receives it in the
        history sent when that game ends.
        """
        if chat not in self.reads():
            return False
        if chat != SPECTATORS or not self.seated or written_in_game is None:
            return True
        return self.game_number is not None and self.game_number >= written_in_game
