"""An arena's pairing waves, shared by every server process through the database.

Every ``ARENA_WAVE_SECONDS`` one process claims the arena's wave (a lease on the arena's row,
``wave_at`` and ``wave_until``: :mod:`lobby.pairing.waves`, as quick pairing's; waves never overlap); it
reads who is waiting (:func:`wave_waiting`), pairs them with the pure :func:`tournaments.pairing.pair_waiting`,
and writes the pairs in batches (:func:`arena_pairs_write`, ``PAIRS_PER_BATCH`` a transaction) that lock the
entries of the batch and drop a pair if either of its players is no longer free. So nobody is in two games
at once. :class:`ArenaWave` is that wave, as the one wave runner (:func:`lobby.realtime.waves.pair_wave`)
runs it. Each game is an ordinary game in an ordinary room, made as every pairing makes them, the batch's
rooms, seats and games each in one INSERT (:func:`lobby.play.pairs.rooms_for_two`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q

from common.errors import Refused
from lobby.pairing.waves import WaveLease
from lobby.play.pairs import GameSettings, rooms_for_two
from lobby.rooms.selectors import players_in_play
from players.models import Player
from players.social import apart_among
from ratings.selectors import ratings_of
from tournaments import events
from tournaments.models import Arena, ArenaGame, ArenaPlayer, ArenaStatus
from tournaments.pairing import Pair, Waiting, pair_waiting
from tournaments.scoring import Entrant, standings
from tournaments.services import tally_of

log = logging.getLogger(__name__)


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


# Pairs written in one transaction: a batch's statements are the same few however many pairs it holds (the
# entries locked and read, the players, who is in play, then one INSERT each of rooms, seats, games and arena
# games, one UPDATE of the entries); each batch commits, and tells its players, as soon as it is written.
PAIRS_PER_BATCH = 50


def arena_pairs_write(*, arena_id: int, pairs: Sequence[Pair], now: datetime) -> list[str]:
    """Write a batch of a wave's pairs in one transaction: for each, a room with Red as host and Yellow as
    guest, its first game started for the arena; returns the rooms' codes. A pair is dropped (the others
    are written) when one of its players paused, withdrew, is in a game by now or turned bot, or is banned or closed;
    the whole batch when the arena ended. Each player is told once it commits."""
    ids = [player_id for pair in pairs for player_id in (pair.red.player_id, pair.yellow.player_id)]
    with transaction.atomic():
        arena = Arena.objects.filter(pk=arena_id, status=ArenaStatus.STARTED, ends_at__gt=now).first()
        if arena is None:
            return []
        entries = {
            str(e.player_id): e
            for e in ArenaPlayer.objects.select_for_update()
            .filter(arena_id=arena_id, player_id__in=ids, game=None, paused=False, withdrawn=False)
            .order_by("pk")
        }
        players = {str(pk): p for pk, p in Player.objects.in_bulk(list(entries), field_name="pk").items()}
        busy = {str(pk) for pk in players_in_play([p.pk for p in players.values()], now=now)}
        taken: set[str] = set()
        kept: list[Pair] = []
        for pair in pairs:
            both = (pair.red.player_id, pair.yellow.player_id)
            if pair.red.player_id == pair.yellow.player_id or any(
                    who not in players or who in busy or who in taken or players[who].is_bot
                    or players[who].is_banned or players[who].is_closed for who in both):
                continue  # one of them sat down to a game (or turned bot) since the wave read them
            taken.update(both)
            kept.append(pair)
        if not kept:
            return []
        played = GameSettings(turn_seconds=arena.turn_seconds, ranked=arena.ranked, alternate_first=False,
                              tournament_id=arena.pk)
        made = rooms_for_two([(players[p.red.player_id], players[p.yellow.player_id]) for p in kept],
                             settings=played, now=now)
        ArenaGame.objects.bulk_create([
            ArenaGame(arena=arena, game=two.game, red=two.red, yellow=two.yellow, red_rating=pair.red.rating,
                      yellow_rating=pair.yellow.rating, paired_at=now)
            for pair, two in zip(kept, made, strict=True)])
        changed = []
        for pair, two in zip(kept, made, strict=True):
            for waiting, colour in ((pair.red, "reds"), (pair.yellow, "yellows")):
                entry = entries[waiting.player_id]
                entry.game = two.game
                setattr(entry, colour, getattr(entry, colour) + 1)
                entry.rating = waiting.rating
                changed.append(entry)
                events.paired_on_commit(arena_id=arena_id, player_id=entry.player_id, code=two.room.code,
                                        game_id=str(two.game.pk))
        ArenaPlayer.objects.bulk_update(changed, ["game", "reds", "yellows", "rating"])
        events.arena_changed_on_commit(arena_id)
        return [two.room.code for two in made]


def wave_write(*, arena_id: int, pairs: Sequence[Pair], now: datetime) -> list[str]:
    """Write pairs batch after batch, each committed (and told) as soon as it is written; returns the codes of
    the rooms made. A batch refused (rolled back whole) is written again a pair at a time, so that the refused
    pair alone is dropped: the others, and the batches after, are written all the same."""
    made: list[str] = []
    for start in range(0, len(pairs), PAIRS_PER_BATCH):
        batch = pairs[start:start + PAIRS_PER_BATCH]
        try:
            made += arena_pairs_write(arena_id=arena_id, pairs=batch, now=now)
        except Refused:
            for pair in batch:
                try:
                    made += arena_pairs_write(arena_id=arena_id, pairs=[pair], now=now)
                except Refused as refused:
                    log.warning("arena %s: %s and %s not paired: %s", arena_id, pair.red.player_id,
                                pair.yellow.player_id, refused.code)
    return made
