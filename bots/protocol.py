"""The bot API's wire format: every JSON object its answers and NDJSON streams carry is built here, from
the rows and snapshots a caller holds (no Django, no queries). ``docs/bots.md`` documents each line.

A stream line has a ``type``: ``challenge``, ``challengeCanceled``, ``challengeDeclined``, ``gameStart``,
``gameFinish`` (the event stream); ``gameFull``, ``gameState``, ``chatLine``, ``opponentGone`` (a game stream).
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import TYPE_CHECKING, Any

from common.iso import iso
from lobby.protocol.rows import PlayerRow

if TYPE_CHECKING:  # the rows' types only: nothing of Django is imported here
    from bots.models import Challenge
    from games.models import Game

# The chats as the bot API names them (lichess's words) and as the rooms do.
CHAT_ROOMS = {"player": "players", "spectator": "spectators"}
CHAT_ROOM_NAMES = {chat: room for room, chat in CHAT_ROOMS.items()}


def account_group(player_id: object) -> str:
    """The channel-layer group of every stream of one account (any process): its events, and the end of its
    streams (``bots.events``)."""
    return f"account.{player_id}"


def encode(line: dict[str, Any]) -> bytes:
    """One NDJSON line."""
    return json.dumps(line, separators=(",", ":")).encode() + b"\n"


KEEP_ALIVE = b"\n"  # an empty line: the client skips it; a proxy sees the stream alive


def player_json(player: PlayerRow, *, rating: dict[str, Any] | None = None,
                username: str | None = None) -> dict[str, Any]:
    """A player as the bot API shows one: id, name, title (``"BOT"`` or null), its account's username (null
    for a guest) and, if known, rating."""
    shown: dict[str, Any] = {"id": str(player.id), "name": player.name, "title": getattr(player, "title", None),
                             "username": username}
    if rating is not None:
        shown["rating"] = rating.get("display")
    return shown


# --- challenges ----------------------------------------------------------------------------------------
def challenge_json(challenge: Challenge, *, challenger: dict[str, Any], dest: dict[str, Any],
                   expires_at: datetime) -> dict[str, Any]:
    """A challenge (a ``bots.models.Challenge`` row) with its two players as :func:`player_json` made them,
    and when it expires if nobody answers."""
    return {
        "id": challenge.pk,
        "status": challenge.status,
        "challenger": challenger,
        "dest": dest,
        "turn_seconds": challenge.turn_seconds,
        "days_per_move": challenge.days_per_move,
        "ranked": challenge.ranked,
        "colour": challenge.colour,
        "decline_reason": challenge.decline_reason or None,
        "room": challenge.room_code or None,
        "game": None if challenge.game_id is None else str(challenge.game_id),
        "created_at": iso(challenge.created_at),
        "expires_at": iso(expires_at),
    }


# An expired challenge is told as canceled (by the clock): its status says which.
CHALLENGE_LINE_TYPES = {"created": "challenge", "canceled": "challengeCanceled", "expired": "challengeCanceled",
                        "declined": "challengeDeclined"}


def challenge_line(challenge: dict[str, Any]) -> dict[str, Any]:
    """The event-stream line of a challenge (a :func:`challenge_json`) made, canceled or declined."""
    return {"type": CHALLENGE_LINE_TYPES[challenge["status"]], "challenge": challenge}


def game_start_line(*, game_id: str, room: str, colour: str) -> dict[str, Any]:
    return {"type": "gameStart", "game": {"id": game_id, "room": room, "colour": colour}}


def game_finish_line(*, game_id: str, room: str, colour: str | None, status: str, winner: str | None,
                     reason: str | None) -> dict[str, Any]:
    return {"type": "gameFinish", "game": {"id": game_id, "room": room, "colour": colour, "status": status,
                                           "winner": winner, "reason": reason}}


# --- a game's stream ---------------------------------------------------------------------------------
def winner_colour(*, winner_seat: int | None, red_seat: int) -> str | None:
    if winner_seat is None:
        return None
    return "red" if winner_seat == red_seat else "yellow"


# The gameState's flags of the offers standing, as lichess's wdraw/bdraw/wtakeback/btakeback.
OFFER_FLAGS = ("rdraw", "ydraw", "rtakeback", "ytakeback")


def game_state(*, moves: list[str], status: str, winner: str | None, reason: str | None,
               deadline: str | None, offers: list[dict[str, Any]], red_seat: int) -> dict[str, Any]:
    """The game as it stands: its moves (peg names, Red first, one space apart), status, winner colour,
    why it ended, when the current turn runs out (null without a timer or once over), and the offers
    standing (``offers``, as the room frame's ``game.offers``), as lichess's ``wdraw``/``bdraw``:
    ``rdraw``/``ydraw`` (that colour offers a draw), ``rtakeback``/``ytakeback`` (asks for a takeback)."""
    offered = {(offer["kind"], winner_colour(winner_seat=offer["seat"], red_seat=red_seat)) for offer in offers}
    return {"type": "gameState", "moves": " ".join(moves), "ply": len(moves), "status": status, "winner": winner,
            "reason": reason, "deadline": deadline,
            **{flag: (flag[1:], "red" if flag[0] == "r" else "yellow") in offered for flag in OFFER_FLAGS}}


def game_full(*, game: Game, room: str, red: dict[str, Any], yellow: dict[str, Any],
              state: dict[str, Any]) -> dict[str, Any]:
    """The first line of a game stream: who plays which colour, the rules, and the :func:`game_state`."""
    return {
        "type": "gameFull",
        "id": str(game.id),
        "room": room,
        "rules": {"turn_seconds": game.turn_seconds, "days_per_move": game.days_per_move, "ranked": game.ranked},
        "red": red,
        "yellow": yellow,
        "created_at": iso(game.started_at),
        "state": {key: value for key, value in state.items() if key != "type"},
    }


def chat_line(message: dict[str, Any]) -> dict[str, Any]:
    """A room's chat message (``lobby.protocol.room.message_json``) as a bot reads it; a quick phrase is
    its key (``good_game``)."""
    return {"type": "chatLine", "room": CHAT_ROOM_NAMES[message["chat"]], "username": message["player"]["name"],
            "text": message.get("text") or message.get("phrase") or ""}


def opponent_gone(gone: bool) -> dict[str, Any]:
    return {"type": "opponentGone", "gone": gone}
