"""An arena's pairing waves, shared by every server process through the database.

Every ``ARENA_WAVE_SECONDS`` one process claims the arena's wave (a lease on the arena's row,
``wave_at`` and ``wave_until``: :mod:`lobby.pairing.waves`, as quick pairing's; waves never overlap); it
reads who is waiting (:func:`wave_waiting`), pairs them with the pure :func:`tournaments.pairing.pair_waiting`,
and writes each pair (:func:`arena_pair_write`) in a transaction that locks both entries and drops the
pair if either is no longer free. So nobody is in two games at once. :class:`ArenaWave` is that wave, as
the one wave runner (:func:`lobby.realtime.waves.pair_wave`) runs it. Each game is an ordinary game in an
ordinary room, made as every pairing makes them (:func:`lobby.play.pairs.room_for_two`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q

from lobby.pairing.waves import WaveLease
from lobby.play.pairs import GameSettings, room_for_two
from lobby.rooms.selectors import players_in_play
from players.models import Player
from players.social import apart_among
from ratings.selectors import ratings_of
from tournaments import events
from tournaments.models import Arena, ArenaGame, ArenaPlayer, ArenaStatus
from tournaments.pairing import Pair, Waiting, pair_waiting
from tournaments.scoring import Entrant, standings
from tournaments.services import tally_of


@dataclass(frozen=True, slots=True)
class ArenaWave:
    """One arena's wave, as :func:`lobby.realtime.waves.pair_wave` runs it (see the module docstring)."""

    arena_id: int

    def lease(self, *, now: datetime) -> WaveLease:
        """The arena's row, claimed only while the arena is being played."""
        playing = Q(status=ArenaStatus.STARTED, starts_at__lte=now, ends_at__gt=now)
        return WaveLease(model=Arena, pk=self.arena_id, started="wave_at", until="wave_until", due=playing,
                         every=timedelta(seconds=settings.ARENA_WAVE_SECONDS))

    def read(self, *, now: datetime) -> list[Waiting]:
        return wave_waiting(arena_id=self.arena_id, now=now)

    def pair(self, waiting: Sequence[Waiting], *, now: datetime) -> list[Pair]:
        return pair_waiting(waiting)

    def write(self, pairs: Sequence[Pair], *, now: datetime) -> list[str]:
        return wave_write(arena_id=self.arena_id, pairs=pairs, now=now)


def wave_waiting(*, arena_id: int, now: datetime) -> list[Waiting]:
    """Who is waiting in the arena (joined, not paused, not withdrawn, not in a game: this arena's or any
    other, as :func:`lobby.rooms.selectors.players_in_play` sees it; and not a bot), with their place in the
    standings and their rating now. A player who joined while playing elsewhere waits for that game's end,
    as on lichess, instead of being paired into a second game at once."""
    entries = list(ArenaPlayer.objects.filter(arena_id=arena_id).select_related("player"))
    ranked = standings([Entrant(player_id=str(e.player_id), tally=tally_of(e), order=e.pk) for e in entries])
    rank = {entrant.player_id: place for place, entrant in enumerate(ranked, start=1)}
    free = [e for e in entries if e.game_id is None and not e.paused and not e.withdrawn and not e.player.is_bot]
    busy = players_in_play([e.player_id for e in free], now=now)
    free = [e for e in free if e.player_id not in busy]
    ratings = ratings_of([e.player_id for e in free], now=now)
    apart = apart_among(e.player_id for e in free)
    return [
        Waiting(
            player_id=str(e.player_id), rank=rank[str(e.player_id)], rating=ratings[e.player_id].rating,
            previous=None if e.previous_opponent_id is None else str(e.previous_opponent_id),
            reds=e.reds, yellows=e.yellows, apart=apart.get(str(e.player_id), frozenset()),
        )
        for e in free
    ]


def arena_pair_write(*, arena_id: int, pair: Pair, now: datetime) -> str | None:
    """Write one pair of a wave: a room with Red as host and Yellow as guest, its first game started
    for the arena; returns the room's code, or None when the pair is dropped (the arena ended, or one
    of them paused, withdrew or is in a game by now). Both are told once it commits."""
    red_id, yellow_id = pair.red.player_id, pair.yellow.player_id
    with transaction.atomic():
        arena = Arena.objects.filter(pk=arena_id, status=ArenaStatus.STARTED, ends_at__gt=now).first()
        if arena is None or red_id == yellow_id:
            return None
        entries = {
            str(e.player_id): e
            for e in ArenaPlayer.objects.select_for_update()
            .filter(arena_id=arena_id, player_id__in=[red_id, yellow_id], game=None, paused=False, withdrawn=False)
            .order_by("pk")
        }
        if len(entries) != 2:
            return None
        players = Player.objects.in_bulk([red_id, yellow_id], field_name="pk")
        if players_in_play(list(players), now=now) or any(p.is_bot for p in players.values()):
            return None  # one of them sat down to a game (or turned bot) since the wave read them
        red, yellow = players[entries[red_id].player_id], players[entries[yellow_id].player_id]
        played = GameSettings(turn_seconds=arena.turn_seconds, ranked=arena.ranked, alternate_first=False,
                              tournament_id=arena.pk)
        made = room_for_two(first=red, second=yellow, colour="red", settings=played, now=now)
        room, game = made.room, made.game
        ArenaGame.objects.create(arena=arena, game=game, red=red, yellow=yellow, red_rating=pair.red.rating,
                                 yellow_rating=pair.yellow.rating, paired_at=now)
        for entry, colour in ((entries[red_id], "reds"), (entries[yellow_id], "yellows")):
            entry.game = game
            setattr(entry, colour, getattr(entry, colour) + 1)
            entry.rating = pair.red.rating if colour == "reds" else pair.yellow.rating
            entry.save(update_fields=["game", colour, "rating"])
            events.paired_on_commit(arena_id=arena_id, player_id=entry.player_id, code=room.code,
                                    game_id=str(game.pk))
        events.arena_changed_on_commit(arena_id)
        return room.code


def wave_write(*, arena_id: int, pairs: Sequence[Pair], now: datetime) -> list[str]:
    """Write pairs one after the other, each committed (and told) as soon as it is written; returns the
    codes of the rooms made."""
    made = (arena_pair_write(arena_id=arena_id, pair=pair, now=now) for pair in pairs)
    return [code for code in made if code is not None]
