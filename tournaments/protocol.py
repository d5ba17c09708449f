"""An arena's wire format: its JSON (REST and socket alike), the socket's frames in and out. No Django.

Built from the rows a caller holds (``Arena``, ``ArenaPlayer``, ``ArenaGame``, ``Game``: anything with
their fields, as the protocols below list them). ``docs/protocol.md`` documents every field and frame.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from common.iso import iso
from common.translation import gettext
from live.frames import BadFrame, Ping, decode_frame
from lobby.protocol.rows import PlayerRow
from tournaments.scoring import Tally


# --- the rows read ----------------------------------------------------------------------------------------
class ArenaRow(Protocol):
    @property
    def pk(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def starts_at(self) -> datetime: ...
    @property
    def ends_at(self) -> datetime: ...
    @property
    def minutes(self) -> int: ...
    @property
    def turn_seconds(self) -> int: ...
    @property
    def ranked(self) -> bool: ...
    @property
    def berserk(self) -> bool: ...
    @property
    def version(self) -> int: ...
    @property
    def finished_at(self) -> datetime | None: ...


class EntryRow(Protocol):
    """An ``ArenaPlayer``."""

    @property
    def player_id(self) -> uuid.UUID: ...
    @property
    def player(self) -> PlayerRow: ...
    @property
    def paused(self) -> bool: ...
    @property
    def withdrawn(self) -> bool: ...
    @property
    def game_id(self) -> uuid.UUID | None: ...


class ArenaGameRow(Protocol):
    @property
    def red_id(self) -> uuid.UUID: ...
    @property
    def yellow_id(self) -> uuid.UUID: ...
    @property
    def red_berserk(self) -> bool: ...
    @property
    def yellow_berserk(self) -> bool: ...
    @property
    def points_red(self) -> int: ...
    @property
    def points_yellow(self) -> int: ...


class FinishedGameRow(Protocol):
    """A ``Game`` as the arena's list of games shows it."""

    @property
    def pk(self) -> uuid.UUID: ...
    @property
    def status(self) -> str: ...
    @property
    def winner_seat(self) -> int | None: ...
    @property
    def red_seat(self) -> int: ...
    @property
    def ply(self) -> int: ...
    @property
    def finished_at(self) -> datetime | None: ...


# --- JSON -------------------------------------------------------------------------------------------------
def arena_summary_json(arena: ArenaRow, *, players: int) -> dict[str, Any]:
    """An arena as lists show it (no standings)."""
    return {
        "id": arena.pk,
        "name": arena.name,
        "status": arena.status,
        "starts_at": iso(arena.starts_at),
        "ends_at": iso(arena.ends_at),
        "minutes": arena.minutes,
        "turn_seconds": arena.turn_seconds,
        "ranked": arena.ranked,
        "berserk": arena.berserk,
        "players": players,
    }


def arena_json(arena: ArenaRow, *, players: int, standings: list[dict[str, Any]], page: int, pages: int,
               podium: list[dict[str, Any]] | None, playing: int) -> dict[str, Any]:
    """``GET /api/tournaments/{id}``: the arena, a page of its standings, the podium once finished."""
    return {
        **arena_summary_json(arena, players=players),
        "version": arena.version,
        "finished_at": iso(arena.finished_at),
        "games_playing": playing,
        "standings": standings,
        "page": page,
        "pages": pages,
        "podium": podium,
    }


def standing_json(*, rank: int, entry: EntryRow, tally: Tally) -> dict[str, Any]:
    """One row of the standings: ``entry`` an arena player (with its ``player``)."""
    return {
        "rank": rank,
        "player": {"id": str(entry.player_id), "name": entry.player.name},
        "score": tally.score,
        "games": tally.games,
        "wins": tally.wins,
        "draws": tally.draws,
        "losses": tally.losses,
        "fire": tally.on_fire,
        "performance": tally.performance,
        "paused": bool(entry.paused or entry.withdrawn),
        "withdrawn": bool(entry.withdrawn),
        "playing": entry.game_id is not None,
    }


def playing_json(*, code: str, game_id: str) -> dict[str, str]:
    return {"code": code, "game": game_id}


def with_me(body: dict[str, Any], *, row: dict[str, Any] | None, playing: dict[str, str] | None) -> dict[str, Any]:
    """The arena's body with the reader's own standings row and game (``me``: null for a non-player)."""
    return {**body, "me": None if row is None else {**row, "game": playing}}


def arena_game_json(row: ArenaGameRow, game: FinishedGameRow) -> dict[str, Any]:
    """One game of ``GET /api/tournaments/{id}/games``: ``row`` the arena's record of ``game``."""
    winner = None if game.winner_seat is None else ("red" if game.winner_seat == game.red_seat else "yellow")
    return {
        "game": str(game.pk),
        "red": str(row.red_id),
        "yellow": str(row.yellow_id),
        "status": game.status,
        "winner": winner,
        "plies": game.ply,
        "berserk": {"red": row.red_berserk, "yellow": row.yellow_berserk},
        "points": {"red": row.points_red, "yellow": row.points_yellow},
        "finished_at": iso(game.finished_at),
    }


# --- the socket's frames -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Berserk:
    """``{"type": "berserk", "game": "<id>"}``: halve my turn timer in this game, before my first move."""

    game: str


TournamentCommand = Berserk | Ping


def parse_tournament_frame(text: str | None, data: bytes | None = None) -> TournamentCommand:
    """Parse one client frame of the arena socket.

    Raises:
        BadFrame: as :func:`live.frames.decode_frame`, an unknown type, or a berserk without a
            game id (``bad_frame``).
    """
    kind, frame = decode_frame(text, data)
    if kind == "ping":
        return Ping()
    if kind == "berserk":
        game = frame.get("game")
        try:
            return Berserk(game=str(uuid.UUID(game)))
        except (TypeError, ValueError, AttributeError):
            raise BadFrame(gettext('A berserk needs "game": the id of your game.')) from None
    raise BadFrame(gettext('Unknown frame type "%(type)s".') % {"type": kind[:40]})


def tournament_frame(body: dict[str, Any]) -> dict[str, Any]:
    """The arena as the reader sees it (the GET body with ``me``)."""
    return {"type": "tournament", **body}


def paired_frame(*, code: str, game: str) -> dict[str, Any]:
    """The reader was paired: their game is ``game`` in room ``code``."""
    return {"type": "paired", "code": code, "game": game}


def berserked_frame(game: str) -> dict[str, Any]:
    """The reader's turn timer in ``game`` is halved."""
    return {"type": "berserked", "game": game}
