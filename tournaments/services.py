"""Every change of an arena but its pairing waves (:mod:`tournaments.waves`): create, join, pause,
withdraw, berserk, score a game's end, and the clock's transitions. One transaction each; what the
arena's page shows is told on commit (:mod:`tournaments.events`). Services take ``now``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from common.errors import RateLimited, Refused
from common.iso import iso
from common.params import one_of
from games import services as games
from games.endings import GameFinished
from games.models import GameStatus
from games.selectors import game_get, seat_last_move_reason
from lobby import timers
from lobby.rooms.selectors import current_game
from lobby.rooms.services import room_code, room_lock, room_touch
from notifications.services import notify
from players.models import Player
from players.services import PlayerEnded, refuse_bots
from ratings.selectors import ratings_of
from tournaments import events
from tournaments.models import MAX_MINUTES, MIN_MINUTES, NAME_MAX_CHARS, TURN_SECONDS, Arena, ArenaGame, ArenaPlayer
from tournaments.models import ArenaStatus as Status
from tournaments.scoring import Result, Tally, tally_after

DAY = timedelta(days=1)
# How far ahead an arena may be announced, and how late its start may be given (a clock a little behind).
MAX_AHEAD = timedelta(days=7)
START_SLACK = timedelta(minutes=1)
# Games lost in a row with the CPU playing the loser's last move (timeouts while away) that pause a player.
AWAY_LOSSES_TO_PAUSE = 2


@dataclass(frozen=True, slots=True)
class ArenaSpec:
    """What a creator chooses, validated by :func:`arena_spec_from`."""

    name: str
    starts_at: datetime | None
    minutes: int
    turn_seconds: int
    ranked: bool
    berserk: bool


def _bad(message: str) -> Refused:
    return Refused("bad_request", message)


def arena_spec_from(data: object, *, parse_instant: Callable[[str], datetime | None]) -> ArenaSpec:
    """The arena a ``POST /api/tournaments`` body asks for.

    ``parse_instant``: turns an ISO-8601 string into an aware datetime (None if it is not one).

    Raises:
        Refused(bad_request): not an object, a field missing, of the wrong type or out of range.
    """
    if not isinstance(data, dict):
        raise _bad(gettext('Send {"name", "starts_at", "minutes", "turn_seconds", "ranked", "berserk"}.'))
    unknown = sorted(set(data) - {"name", "starts_at", "minutes", "turn_seconds", "ranked", "berserk"})
    if unknown:
        raise _bad(ngettext("Unknown field: %(fields)s.", "Unknown fields: %(fields)s.", len(unknown))
                   % {"fields": ", ".join(unknown)})
    name = data.get("name")
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > NAME_MAX_CHARS:
        raise _bad(gettext("name: 1 to %(most)s characters.") % {"most": NAME_MAX_CHARS})
    minutes = data.get("minutes")
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not MIN_MINUTES <= minutes <= MAX_MINUTES:
        raise _bad(gettext("minutes: a whole number from %(low)s to %(high)s.")
                   % {"low": MIN_MINUTES, "high": MAX_MINUTES})
    seconds = data.get("turn_seconds")
    if not one_of(seconds, TURN_SECONDS):
        raise _bad(gettext("turn_seconds: 30 or 60 (an arena needs a clock)."))
    flags = {flag: data.get(flag, default) for flag, default in (("ranked", True), ("berserk", False))}
    if not all(isinstance(value, bool) for value in flags.values()):
        raise _bad(gettext("ranked and berserk: true or false."))
    raw = data.get("starts_at")
    starts_at = None if raw is None else parse_instant(raw) if isinstance(raw, str) else None
    if raw is not None and starts_at is None:
        raise _bad(gettext("starts_at: an ISO-8601 instant with its time zone, or null for now."))
    return ArenaSpec(name=" ".join(name.split()), starts_at=starts_at, minutes=minutes, turn_seconds=seconds,
                     ranked=flags["ranked"], berserk=flags["berserk"])


def arena_create(*, spec: ArenaSpec, player: Player | None, now: datetime) -> Arena:
    """A new arena created by ``player`` (an account), at most ``ARENAS_PER_DAY_PER_ACCOUNT`` a day.

    Raises:
        Refused: no_account (a guest, or no player), banned, bot_account (bots play challenges only),
            bad_request (a start in the past or more than a week ahead); RateLimited: the day's arenas are
            created already.
    """
    if player is None or player.user_id is None:
        raise Refused("no_account", gettext("Create an account (or log in) to create an arena."))
    if player.is_banned:
        raise Refused("banned", gettext("This player is banned by a moderator."))
    refuse_bots(player)
    starts_at = spec.starts_at or now
    if starts_at < now - START_SLACK or starts_at > now + MAX_AHEAD:
        raise _bad(gettext("starts_at: from now to a week ahead."))
    with transaction.atomic():
        Player.objects.select_for_update().filter(pk=player.pk).first()  # one creation at a time per account
        recent = list(Arena.objects.filter(created_by=player, created_at__gt=now - DAY).order_by("created_at")
                      .values_list("created_at", flat=True))
        if len(recent) >= settings.ARENAS_PER_DAY_PER_ACCOUNT:
            wait = recent[-settings.ARENAS_PER_DAY_PER_ACCOUNT] + DAY - now
            most = settings.ARENAS_PER_DAY_PER_ACCOUNT
            raise RateLimited(max(1, int(wait.total_seconds()) + 1),
                              message=ngettext("At most %(most)d arena a day.", "At most %(most)d arenas a day.", most)
                              % {"most": most})
        return arena_add(spec=spec, starts_at=starts_at, creator=player, now=now)


def arena_add(*, spec: ArenaSpec, starts_at: datetime, creator: Player | None, now: datetime) -> Arena:
    """Store an arena (no quota: :func:`arena_create` checks it; staff add them in the admin)."""
    arena = Arena.objects.create(
        name=spec.name, created_by=creator, created_at=now, starts_at=starts_at,
        ends_at=starts_at + timedelta(minutes=spec.minutes), minutes=spec.minutes, turn_seconds=spec.turn_seconds,
        ranked=spec.ranked, berserk=spec.berserk,
        status=Status.STARTED if starts_at <= now else Status.CREATED,
    )
    events.arena_added_on_commit()
    return arena


def lock_arena(arena_id: int) -> Arena:
    """The arena, its row locked until the transaction ends.

    ``FOR NO KEY UPDATE`` (as an UPDATE of the row takes): it serialises the arena's changes but not the
    key-share lock a new row referring to the arena takes (a pair's game, written while its two entries
    are locked), which a plain ``FOR UPDATE`` would wait for: entries then arena here, arena then entries
    there, a deadlock.

    Raises:
        Refused(not_found): no such arena.
    """
    arena = Arena.objects.select_for_update(no_key=True).filter(pk=arena_id).first()
    if arena is None:
        raise Refused("not_found", gettext("There is no such arena."))
    return arena


def _changed(arena: Arena) -> None:
    """Bump the arena's version (its row is locked) and have its page told once committed."""
    Arena.objects.filter(pk=arena.pk).update(version=F("version") + 1)
    events.arena_changed_on_commit(arena.pk)


def arena_join(*, arena_id: int, player: Player, now: datetime) -> ArenaPlayer:
    """``player`` joins (or comes back to: after a pause or a withdrawal) the arena, before or during it. One
    who is playing a game elsewhere joins at once and is paired once that game ends (:mod:`tournaments.waves`).

    Raises:
        Refused: not_found, finished, banned, bot_account (bots play challenges only).
    """
    if player.is_banned:
        raise Refused("banned", gettext("This player is banned by a moderator."))
    refuse_bots(player)
    with transaction.atomic():
        arena = lock_arena(arena_id)
        if arena.status == Status.FINISHED or arena.ends_at <= now:
            raise Refused("finished", gettext("This arena is over."))
        rating = ratings_of([player.pk], now=now)[player.pk].rating
        entry, created = ArenaPlayer.objects.get_or_create(
            arena=arena, player=player, defaults={"joined_at": now, "rating": rating}
        )
        if not created:
            entry.paused = entry.withdrawn = False
            entry.away_losses = 0
            entry.save(update_fields=["paused", "withdrawn", "away_losses"])
        _changed(arena)
        return entry


def _running_entry(arena_id: int, player: Player) -> tuple[Arena, ArenaPlayer]:
    """The arena (not finished) and the player's entry (not withdrawn), both locked.

    Raises:
        Refused: not_found, finished, not_joined.
    """
    arena = lock_arena(arena_id)
    if arena.status == Status.FINISHED:
        raise Refused("finished", gettext("This arena is over."))
    entry = ArenaPlayer.objects.select_for_update().filter(arena=arena, player=player, withdrawn=False).first()
    if entry is None:
        raise Refused("not_joined", gettext("You have not joined this arena."))
    return arena, entry


def arena_pause(*, arena_id: int, player: Player, now: datetime) -> ArenaPlayer:
    """``player`` is not paired again until they join again (a game being played goes on and counts).

    Raises:
        Refused: not_found, finished, not_joined.
    """
    with transaction.atomic():
        arena, entry = _running_entry(arena_id, player)
        if not entry.paused:
            entry.paused = True
            entry.save(update_fields=["paused"])
            _changed(arena)
        return entry


def arena_withdraw(*, arena_id: int, player: Player, now: datetime) -> None:
    """``player`` leaves the arena. Before it starts, or before their first game, their entry goes;
    after, it stays in the standings with its points (shown withdrawn), and they may join again.

    Raises:
        Refused: not_found, finished, not_joined.
    """
    with transaction.atomic():
        arena, entry = _running_entry(arena_id, player)
        if entry.games == 0 and entry.game_id is None:
            entry.delete()
        else:
            entry.withdrawn, entry.paused = True, False
            entry.save(update_fields=["withdrawn", "paused"])
        _changed(arena)


def arenas_player_ended(ended: PlayerEnded) -> None:
    """Registered with ``players.services.PLAYER_ENDED`` (in its transaction): a banned or closed player is
    withdrawn from every arena not over, as :func:`arena_withdraw` does, under the entry's lock, so that no
    wave pairs them after (a game being played goes on and counts)."""
    if not ended.withdraws:
        return
    entered = (ArenaPlayer.objects.filter(player=ended.player, withdrawn=False).exclude(arena__status=Status.FINISHED)
               .order_by("arena_id").values_list("arena_id", flat=True))
    for arena_id in entered:
        with contextlib.suppress(Refused):  # over or left meanwhile
            arena_withdraw(arena_id=arena_id, player=ended.player, now=ended.at)


def arena_berserk(*, arena_id: int, player: Player, game_id: str, now: datetime) -> None:
    """``player`` halves their own turn timer for their arena game ``game_id``, before their first move.

    Raises:
        Refused: not_found, no_berserk (the arena does not allow it), not_your_game, game_over, too_late,
            already_halved.
    """
    with transaction.atomic():
        arena_game = ArenaGame.objects.select_for_update().filter(arena_id=arena_id, game_id=game_id).first()
        arena = Arena.objects.filter(pk=arena_id).first()
        if arena is None:
            raise Refused("not_found", gettext("There is no such arena."))
        if not arena.berserk:
            raise Refused("no_berserk", gettext("This arena does not allow berserk."))
        if arena_game is None or player.pk not in (arena_game.red_id, arena_game.yellow_id):
            raise Refused("not_your_game", gettext("That is not your game in this arena."))
        found = game_get(game_id)
        room = room_lock(room_code(found.room_id)) if found is not None else None
        game = current_game(room) if room is not None else None
        if room is None or game is None or str(game.pk) != str(arena_game.game_id):
            raise Refused("game_over", gettext("The game is over."))
        colour = "red" if arena_game.red_id == player.pk else "yellow"
        games.game_halve_turns(game, colour=colour)
        timers.reschedule(room, now=now, game=game)
        room_touch(room, now=now)
        setattr(arena_game, f"{colour}_berserk", True)
        arena_game.save(update_fields=[f"{colour}_berserk"])
        _changed(arena)


# --- a game's end -------------------------------------------------------------------------------------------
def arena_game_finished(finished: GameFinished) -> None:
    """The games layer's hook (registered by ``tournaments.apps``): score the game if an arena paired it (a
    game no arena paired is not looked for: every game's end passes here)."""
    if finished.tournament_id is not None:
        arena_game_score(game_id=finished.game_id, now=timezone.now())


def _result(status: str, winner: str | None, colour: str) -> Result:
    if status == GameStatus.ABANDONED:
        return Result.VOID
    if winner is None:
        return Result.DRAW
    return Result.WIN if winner == colour else Result.LOSS


def tally_of(entry: ArenaPlayer) -> Tally:
    return Tally(score=entry.score, games=entry.games, wins=entry.wins, draws=entry.draws, losses=entry.losses,
                 streak=entry.streak, perf_sum=entry.perf_sum, perf_games=entry.perf_games)


def arena_game_score(*, game_id: str, now: datetime) -> bool:
    """Score a finished arena game once: both players' totals, the points on the game's row, their
    state (free again; paused after ``AWAY_LOSSES_TO_PAUSE`` losses in a row while away). Returns
    whether this call scored it (False: not an arena game, still being played, or scored already)."""
    with transaction.atomic():
        arena_game = ArenaGame.objects.select_for_update().filter(game_id=game_id, scored_at=None).first()
        if arena_game is None:
            return False
        game = game_get(game_id)
        if game is None or game.status == GameStatus.PLAYING:
            return False
        arena = lock_arena(arena_game.arena_id)
        winner = None if game.winner_seat is None else game.colour_of_seat(game.winner_seat)
        entries = {e.player_id: e for e in ArenaPlayer.objects.select_for_update().filter(
            arena=arena, player_id__in=[arena_game.red_id, arena_game.yellow_id]).order_by("pk")}
        sides = (("red", arena_game.red_id, arena_game.yellow_id, arena_game.yellow_rating, arena_game.red_berserk),
                 ("yellow", arena_game.yellow_id, arena_game.red_id, arena_game.red_rating, arena_game.yellow_berserk))
        for colour, player_id, opponent_id, opponent_rating, berserk in sides:
            entry = entries[player_id]
            result = _result(game.status, winner, colour)
            tally, scored = tally_after(tally_of(entry), result=result, berserk=berserk, plies=game.ply,
                                        opponent_rating=opponent_rating)
            setattr(arena_game, f"points_{colour}", scored)
            for field in ("score", "games", "wins", "draws", "losses", "streak", "perf_sum", "perf_games"):
                setattr(entry, field, getattr(tally, field))
            away = result is Result.LOSS and seat_last_move_reason(game, game.seat_of_colour(colour)) in (
                "timeout", "away")
            entry.away_losses = entry.away_losses + 1 if away else 0
            if entry.away_losses >= AWAY_LOSSES_TO_PAUSE:
                entry.paused, entry.away_losses = True, 0
            entry.game = None
            entry.previous_opponent_id = opponent_id
            entry.save()
        arena_game.scored_at = now
        arena_game.save(update_fields=["scored_at", "points_red", "points_yellow"])
        _changed(arena)
        return True


# --- the clock ----------------------------------------------------------------------------------------------
def arenas_sweep(*, now: datetime) -> list[int]:
    """Move arenas on with the clock, and score arena games whose end no hook scored (their process
    died in between); returns the ids of the arenas running now. Idempotent: any process may call it."""
    arenas_starting_notify(now=now)
    for arena_id in Arena.objects.filter(status=Status.CREATED, starts_at__lte=now).values_list("pk", flat=True):
        with transaction.atomic():
            if Arena.objects.filter(pk=arena_id, status=Status.CREATED).update(status=Status.STARTED):
                _changed(Arena(pk=arena_id))
    unscored = ArenaGame.objects.filter(scored_at=None).exclude(game__status=GameStatus.PLAYING)
    for game_id in unscored.values_list("game_id", flat=True):
        arena_game_score(game_id=str(game_id), now=now)
    playing = ArenaGame.objects.filter(scored_at=None).values("arena_id")
    over = Arena.objects.filter(status=Status.STARTED, ends_at__lte=now).exclude(pk__in=playing)
    for arena_id in over.values_list("pk", flat=True):
        with transaction.atomic():
            if Arena.objects.filter(pk=arena_id, status=Status.STARTED).update(status=Status.FINISHED,
                                                                                 finished_at=now):
                _changed(Arena(pk=arena_id))
    return list(Arena.objects.filter(status=Status.STARTED, ends_at__gt=now).values_list("pk", flat=True))


# An arena's players are told this long before it starts.
STARTING_SOON = timedelta(minutes=5)


def arena_starting_text(data: Mapping[str, Any]) -> str:
    """The text of ``arena_starting`` (``notifications.kinds``: written when shown, in the reader's language)."""
    minutes = data["minutes"]
    return ngettext("%(name)s starts in %(minutes)d minute.", "%(name)s starts in %(minutes)d minutes.", minutes) % {
        "name": data["tournament"]["name"], "minutes": minutes}


def arenas_starting_notify(*, now: datetime) -> int:
    """Tell the players of each arena starting within ``STARTING_SOON`` (an ``arena_starting``
    notification each), once per arena however many processes sweep: the arena's ``starting_told_at`` is
    set by one conditional update, in the transaction that notifies. A player who joins after that was
    told by joining. Returns how many arenas were told of."""
    told = 0
    soon = Arena.objects.filter(status=Status.CREATED, starting_told_at=None, starts_at__gt=now,
                                starts_at__lte=now + STARTING_SOON)
    for arena_id in soon.values_list("pk", flat=True):
        with transaction.atomic():
            if not Arena.objects.filter(pk=arena_id, starting_told_at=None).update(starting_told_at=now):
                continue
            arena = Arena.objects.get(pk=arena_id)
            minutes = max(1, -(-int((arena.starts_at - now).total_seconds()) // 60))
            data = {"tournament": {"id": arena.pk, "name": arena.name, "starts_at": iso(arena.starts_at)},
                    "minutes": minutes}
            entries = ArenaPlayer.objects.filter(arena=arena, withdrawn=False).values_list("player_id", flat=True)
            for player_id in entries:
                notify(player_id=player_id, kind="arena_starting", url=f"/tournaments/{arena.pk}", data=data,
                       key=f"arena_starting:{arena.pk}", now=now)
            told += 1
    return told
