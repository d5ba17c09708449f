"""What an arena's changes tell its sockets once committed, through the platform's one outlet
(:mod:`live.events`): "look again" to everyone on the arena's page (at most every ``NUDGE_DELAY`` per
process), and "paired" to the two players of a new game."""

from __future__ import annotations

from dataclasses import dataclass

from live import events
from tournaments import messages

NUDGE_DELAY = 0.25


@dataclass(frozen=True, slots=True)
class ArenaAdded(events.Signal):
    """An arena was added (once committed): this process's arena loop reads when it next has work."""


def arena_added_on_commit() -> None:
    """Once committed, have this process's arena loop (``tournaments.realtime.loop``) look again."""
    events.on_commit(ArenaAdded())


def arena_group(arena_id: object) -> str:
    """The channel-layer group of every socket on the arena's page."""
    return f"tournament.{arena_id}"


def player_group(arena_id: object, player_id: object) -> str:
    """The group of one player's sockets on the arena's page."""
    return f"tournament.{arena_id}.{player_id}"


def arena_changed_on_commit(arena_id: object) -> None:
    """Once committed, the arena's pages look again (what they show is rebuilt by each process's feed)."""
    events.on_commit(events.ToGroupSoon(arena_group(arena_id), messages.TournamentChanged(), NUDGE_DELAY))


def paired_on_commit(*, arena_id: object, player_id: object, code: str, game_id: str) -> None:
    """Once committed, tell the player's sockets on the arena's page where their new game is."""
    events.on_commit(events.ToGroup(player_group(arena_id, player_id), messages.TournamentPaired(code, game_id)))
