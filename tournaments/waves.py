"""An arena's pairing waves, shared by every server process through the database.

Every ``ARENA_WAVE_SECONDS`` one process claims the arena's wave (:func:`wave_claim`, a conditional
UPDATE of the arena's row, as ``lobby.pairing.seeks.wave_claim`` does for quick pairing: waves never
overlap); it reads who is waiting (:func:`wave_waiting`), pairs them with the pure
:func:`tournaments.pairing.pair_wave`, and writes each pair (:func:`pair_write`) in a transaction that
locks both entries and drops the pair if either is no longer free. So nobody is in two games at once.
Each game is an ordinary game in an ordinary room, made by the lobby's services as quick pairing makes
them (:func:`lobby.rooms.services.room_create`, then :func:`lobby.play.moves.game_start`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q

from lobby.play import moves
from lobby.rooms.services import room_create
from players.models import Player
from ratings.selectors import ratings_of
from tournaments import events
from tournaments.models import Arena, ArenaGame, ArenaPlayer, ArenaStatus
from tournaments.pairing import Pair, Waiting
from tournaments.scoring import Entrant, standings
from tournaments.services import tally_of

# A wave is given this long; if its process dies meanwhile, another process takes over after it.
WAVE_LEASE = timedelta(seconds=30)


def wave_every() -> timedelta:
    return timedelta(seconds=settings.ARENA_WAVE_SECONDS)


def wave_claim(*, arena_id: int, now: datetime) -> bool:
    """Whether this process runs the arena's wave due now (one conditional UPDATE; see the module)."""
    due = now - wave_every() * 0.9  # a process ticking every second is not pushed a tick late by jitter
    return bool(
        Arena.objects.filter(pk=arena_id, status=ArenaStatus.STARTED, starts_at__lte=now, ends_at__gt=now)
        .filter(Q(wave_at=None) | Q(wave_at__lte=due))
        .filter(Q(wave_until=None) | Q(wave_until__lt=now))
        .update(wave_at=now, wave_until=now + WAVE_LEASE)
    )


def wave_end(*, arena_id: int) -> None:
    """The wave this process claimed is written: the next may start when it is due."""
    Arena.objects.filter(pk=arena_id).update(wave_until=None)


def wave_waiting(*, arena_id: int, now: datetime) -> list[Waiting]:
    """Who is waiting in the arena (joined, not paused, not withdrawn, not in a game), with their place
    in the standings and their rating now."""
    entries = list(ArenaPlayer.objects.filter(arena_id=arena_id))
    ranked = standings([Entrant(player_id=str(e.player_id), tally=tally_of(e), order=e.pk) for e in entries])
    rank = {entrant.player_id: place for place, entrant in enumerate(ranked, start=1)}
    free = [e for e in entries if e.game_id is None and not e.paused and not e.withdrawn]
    ratings = ratings_of([e.player_id for e in free], now=now)
    return [
        Waiting(
            player_id=str(e.player_id), rank=rank[str(e.player_id)], rating=ratings[e.player_id].rating,
            previous=None if e.previous_opponent_id is None else str(e.previous_opponent_id),
            reds=e.reds, yellows=e.yellows,
        )
        for e in free
    ]


def pair_write(*, arena_id: int, pair: Pair, now: datetime) -> str | None:
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
        red, yellow = players[entries[red_id].player_id], players[entries[yellow_id].player_id]
        rules = {"turn_seconds": arena.turn_seconds, "ranked": arena.ranked, "alternate_first": False}
        room = room_create(host=red, guest=yellow, rules=rules, now=now)
        game = moves.game_start(code=room.code, player=red, now=now, tournament_id=arena.pk)
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
    made = (pair_write(arena_id=arena_id, pair=pair, now=now) for pair in pairs)
    return [code for code in made if code is not None]
