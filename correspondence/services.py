"""Correspondence play: its seeks (make, delete, accept, and the pairing wave that pairs compatible ones)
and what it tells its players (``your_turn``, ``time_running_out``, ``game_over``, ``paired``).

The games are ordinary rooms and games with ``days_per_move`` set (the rules: :mod:`lobby.timers`,
:func:`games.endings.game_time_out`); a pairing ends in :func:`lobby.play.pairs.room_for_two` as every
pairing does. Each notification is made in the transaction of what it tells of (a move, a game's end, a
pairing), keyed, so once across processes. Services take ``now``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext, gettext_lazy, ngettext
from django_stubs_ext import StrPromise

from common.errors import Refused
from common.params import one_of
from correspondence.limits import seek_create_quota_take
from correspondence.models import CorrespondenceSeek
from correspondence.selectors import seeks_open
from games.endings import GameFinished
from games.models import EndReason, Game, GameStatus
from live.events import Signal, on_commit
from lobby.models import PairingWave
from lobby.pairing.matching import DEFAULT_POLICY, Pool, Seeker, pair_seekers
from lobby.pairing.seeks import seekers_apart
from lobby.pairing.waves import WaveLease
from lobby.play.moves import MovePlayed, games_resign_for
from lobby.play.pairs import GameSettings, TwoSeated, room_for_two
from lobby.protocol.frames import DAYS_PER_MOVE_CHOICES
from lobby.rooms.limits import rooms_create_quota_take
from notifications.models import Notification
from notifications.services import notify
from players.models import Player
from players.services import EndedBy, PlayerEnded
from players.social import is_blocked
from ratings.selectors import ratings_of

log = logging.getLogger(__name__)

DAYS = tuple(days for days in DAYS_PER_MOVE_CHOICES if days is not None)
# A seek waits this long for an opponent.
SEEK_LIFETIME = timedelta(days=7)
# Open seeks one player may have at once.
MAX_SEEKS = 5
# The correspondence seeks' pairing wave: its lease is the second row of quick pairing's table.
WAVE_ROW = 2
WAVE_EVERY = timedelta(seconds=5)


def _room_url(code: str) -> str:
    return f"/r/{code}"


# --- seeks -------------------------------------------------------------------------------------------
def _refuse_unable(player: Player | None) -> Player:
    """The player, if they may play correspondence games: an open account that is not a bot and not banned.

    Raises:
        Refused: no_account (none, a guest or closed), bot_account (bots are challenged instead), banned.
    """
    if player is None or player.user_id is None or player.is_closed:
        raise Refused("no_account", gettext("Correspondence games need an account: register or log in first."))
    if player.is_bot:
        raise Refused("bot_account", gettext("A bot plays correspondence games when challenged, not through seeks."))
    if player.is_banned:
        raise Refused("banned", gettext("A banned player cannot play."))
    return player


@dataclass(frozen=True, slots=True)
class SeekMade(Signal):
    """A correspondence seek was made (once committed): this process's correspondence loop
    (``correspondence.realtime``) runs the seeks' wave."""


def seek_create(*, player: Player | None, days_per_move: object, ranked: object, now: datetime,
                address: str | None = None) -> CorrespondenceSeek:
    """``player`` looks for a correspondence game (no page needs to stay open); it waits 7 days. Counted
    against the seeker's and ``address``'s seeks of the hour (:mod:`correspondence.limits`).

    Raises:
        Refused: no_account, bot_account, banned, bad_rules, too_many_seeks (``MAX_SEEKS`` open already);
            RateLimited: the hour's seeks are spent.
    """
    seeker = _refuse_unable(player)
    seek_create_quota_take(player_id=str(seeker.pk), address=address, now=now)
    if not one_of(days_per_move, DAYS):
        raise Refused("bad_rules", gettext("days_per_move is 1, 2, 3, 5 or 7."))
    if not isinstance(ranked, bool):
        raise Refused("bad_rules", gettext("ranked is true or false."))
    rating = ratings_of([seeker.pk], now=now)[seeker.pk].rating
    with transaction.atomic():
        list(Player.objects.select_for_update().filter(pk=seeker.pk).values_list("pk", flat=True))
        if seeks_open(now=now).filter(player=seeker).count() >= MAX_SEEKS:
            raise Refused("too_many_seeks", gettext("At most %(most)s correspondence seeks wait at once.")
                          % {"most": MAX_SEEKS})
        on_commit(SeekMade())
        return CorrespondenceSeek.objects.create(player=seeker, days_per_move=int(days_per_move), ranked=ranked,
                                                 rating=rating, created_at=now, expires_at=now + SEEK_LIFETIME)


def seeks_player_ended(ended: PlayerEnded) -> None:
    """Registered with ``players.services.PLAYER_ENDED`` (in its transaction): a banned or closed player's
    seeks are withdrawn, under their row locks, so that nobody accepts them and no wave pairs them after."""
    if ended.withdraws:
        for seek in CorrespondenceSeek.objects.select_for_update().filter(player=ended.player):
            seek.delete()


def games_player_closed(ended: PlayerEnded) -> None:
    """Registered with ``players.services.PLAYER_ENDED`` (in the closing's transaction): a closed account's
    correspondence games being played are resigned at once, rather than lost on time days later."""
    if ended.reason is EndedBy.CLOSED:
        games_resign_for(player=ended.player, correspondence=True, now=ended.at)


def _seek_locked(seek_id: object, *, now: datetime) -> CorrespondenceSeek:
    """The open seek ``seek_id``, locked.

    Raises:
        Refused(no_seek): none such, or it expired.
    """
    if isinstance(seek_id, bool) or not isinstance(seek_id, int) or not 0 < seek_id < 2**63:
        raise Refused("no_seek", gettext("There is no such seek."))
    seek = (CorrespondenceSeek.objects.select_for_update(of=("self",)).select_related("player")
            .filter(pk=seek_id, expires_at__gt=now).first())
    if seek is None:
        raise Refused("no_seek", gettext("There is no such seek: it was taken, deleted or it expired."))
    return seek


def seek_delete(*, player: Player | None, seek_id: object, now: datetime) -> None:
    """The seeker deletes their seek.

    Raises:
        Refused: no_seek, not_yours.
    """
    with transaction.atomic():
        seek = _seek_locked(seek_id, now=now)
        if player is None or seek.player_id != player.pk:
            raise Refused("not_yours", gettext("Only the seeker deletes a seek."))
        seek.delete()


def seek_accept(*, player: Player | None, seek_id: object, now: datetime, address: str | None = None) -> TwoSeated:
    """``player`` takes the seek: a room with both seated and the correspondence game started; both are
    told (``paired``). The room counts against both players' room quotas and the taker's ``address``'s,
    as an accepted challenge's does.

    Raises:
        Refused: no_account, bot_account, banned, no_seek, own_seek, blocked (either blocked the other);
            RateLimited: a room quota is spent (the seek stays open).
    """
    taker = _refuse_unable(player)
    with transaction.atomic():
        seek = _seek_locked(seek_id, now=now)
        if seek.player_id == taker.pk:
            raise Refused("own_seek", gettext("You cannot accept your own seek."))
        if is_blocked(blocker_id=seek.player_id, blocked_id=taker.pk) or is_blocked(
                blocker_id=taker.pk, blocked_id=seek.player_id):
            raise Refused("blocked", gettext("This player does not accept games from you."))
        _refuse_unable(seek.player)
        rooms_create_quota_take(address=address, player_ids=[str(seek.player_id), str(taker.pk)], now=now)
        made = _pair(seek.player, taker, days_per_move=seek.days_per_move, ranked=seek.ranked, now=now)
        seek.delete()
        return made


def _pair(first: Player, second: Player, *, days_per_move: int, ranked: bool, now: datetime) -> TwoSeated:
    made = room_for_two(first=first, second=second, now=now,
                        settings=GameSettings(turn_seconds=None, days_per_move=days_per_move, ranked=ranked))
    code = made.room.code
    for me, other in ((made.red, made.yellow), (made.yellow, made.red)):
        notify(player_id=me.pk, kind="paired", now=now, url=_room_url(code), key=f"paired:{made.game.pk}",
               data={"room": code, "game": str(made.game.pk), "opponent": str(other.pk), "opponent_name": other.name,
                     "colour": "red" if me is made.red else "yellow", "days_per_move": days_per_move})
    return made


@dataclass(frozen=True, slots=True)
class CorrespondenceWave:
    """The pairing wave of the correspondence seeks, as :func:`lobby.realtime.waves.pair_wave` runs it:
    quick pairing's second lease row, the open seeks read, paired by rating as quick pairing pairs (one
    pool per days per move and ranked), each pair written in its own transaction."""

    def lease(self, *, now: datetime) -> WaveLease:
        return WaveLease(model=PairingWave, pk=WAVE_ROW, started="started_at", until="running_until",
                         every=WAVE_EVERY, create=True)

    def read(self, *, now: datetime) -> list[Seeker]:
        seeks = seeks_open(now=now).order_by("pk")
        return seekers_apart([
            Seeker(seek_id=seek.pk, player_id=str(seek.player_id), rating=seek.rating, since=seek.created_at,
                   pool=Pool(turn_seconds=None, ranked=seek.ranked, days_per_move=seek.days_per_move))
            for seek in seeks
        ])

    def pair(self, waiting: Sequence[Seeker], *, now: datetime) -> list[tuple[Seeker, Seeker]]:
        return pair_seekers(waiting, now=now, policy=DEFAULT_POLICY)

    def write(self, pairs: Sequence[tuple[Seeker, Seeker]], *, now: datetime) -> list[TwoSeated]:
        made = []
        for a, b in pairs:
            try:
                pairing = _seeks_pair(a, b, now=now)
            except Refused as refused:  # this pair alone is dropped: the others are written
                log.warning("correspondence seeks %s and %s not paired: %s", a.seek_id, b.seek_id, refused.code)
                continue
            if pairing is not None:
                made.append(pairing)
        return made


def _seeks_pair(a: Seeker, b: Seeker, *, now: datetime) -> TwoSeated | None:
    """One pair of the wave in a transaction of its own; None when one was taken, deleted or expired meanwhile,
    or its player banned or closed."""
    with transaction.atomic():
        seeks = list(CorrespondenceSeek.objects.select_for_update(of=("self",)).select_related("player")
                     .filter(pk__in=(a.seek_id, b.seek_id), expires_at__gt=now).order_by("pk"))
        if len(seeks) != 2 or any(s.player.is_banned or s.player.is_closed for s in seeks):
            return None
        first, second = seeks
        made = _pair(first.player, second.player, days_per_move=first.days_per_move, ranked=first.ranked, now=now)
        CorrespondenceSeek.objects.filter(pk__in=(a.seek_id, b.seek_id)).delete()
        return made


CORRESPONDENCE_WAVE = CorrespondenceWave()


# --- what the players are told (notifications.kinds: each kind's text, written when shown, in the reader's language)
def paired_text(data: Mapping[str, Any]) -> str:
    days = data["days_per_move"]
    text = (ngettext("A correspondence game against %(name)s has begun: you play Red, %(days)d day a move.",
                     "A correspondence game against %(name)s has begun: you play Red, %(days)d days a move.", days)
            if data["colour"] == "red" else
            ngettext("A correspondence game against %(name)s has begun: you play Yellow, %(days)d day a move.",
                     "A correspondence game against %(name)s has begun: you play Yellow, %(days)d days a move.", days))
    return text % {"name": data["opponent_name"], "days": days}


def your_turn_text(data: Mapping[str, Any]) -> str:
    name = data["opponent_name"]
    if name is None:
        return gettext("Your opponent played %(peg)s: your move.") % {"peg": data["last_move"]}
    return gettext("%(name)s played %(peg)s: your move.") % {"name": name, "peg": data["last_move"]}


def time_running_out_text(data: Mapping[str, Any]) -> str:
    hours = data["hours"]
    return ngettext("Your time is running out: about %(hours)d hour left for your move.",
                    "Your time is running out: about %(hours)d hours left for your move.", hours) % {"hours": hours}


# How a correspondence game ended, for one of its players.
GAME_OVER: dict[str, StrPromise] = {
    "aborted": gettext_lazy("Your correspondence game against %(name)s was aborted."),
    "abandoned": gettext_lazy("Your correspondence game against %(name)s was abandoned."),
    "drawn": gettext_lazy("Your correspondence game against %(name)s was drawn."),
    "won_on_time": gettext_lazy("Your correspondence game against %(name)s is won on time."),
    "lost_on_time": gettext_lazy("Your correspondence game against %(name)s is lost on time."),
    "won": gettext_lazy("Your correspondence game against %(name)s is won."),
    "lost": gettext_lazy("Your correspondence game against %(name)s is lost."),
}


def game_over_text(data: Mapping[str, Any]) -> str:
    name = data["opponent_name"] or gettext("the CPU")
    return str(GAME_OVER[data["outcome"]]) % {"name": name}


TEXTS_OF_CORRESPONDENCE = {"your_turn": your_turn_text, "time_running_out": time_running_out_text,
                           "game_over": game_over_text, "paired": paired_text}


def your_turn_notify(moved: MovePlayed) -> None:
    """A move in a room (:data:`lobby.play.moves.MOVE_PLAYED`, inside its transaction): when it is a
    correspondence game's and the game goes on, the person to move is told, at most one unread
    ``your_turn`` a game (a newer one replaces it). The CPU answers at once: nobody to tell."""
    game = moved.game
    if game.days_per_move is None or game.status != GameStatus.PLAYING:
        return
    red = game.to_move_colour == "red"
    to_move, mover = (game.red_player_id, game.yellow_player_id) if red else (game.yellow_player_id, game.red_player_id)
    if to_move is None or (game.red_cpu if red else game.yellow_cpu):
        return
    now = game.turn_started_at
    stale = Notification.objects.filter(player_id=to_move, kind="your_turn", read_at__isnull=True,
                                        key__startswith=f"your_turn:{game.pk}:")
    stale.delete()
    name = Player.objects.filter(pk=mover).values_list("name", flat=True).first()
    notify(player_id=str(to_move), kind="your_turn", now=now, url=_room_url(moved.code),
           key=f"your_turn:{game.pk}:{game.ply}",
           data={"room": moved.code, "game": str(game.pk), "ply": game.ply, "last_move": str(moved.played.peg),
                 "opponent_name": name, "deadline": None if game.deadline is None else game.deadline.isoformat()})


def warnings_send(*, now: datetime, limit: int = 100) -> int:
    """Tell every player whose correspondence time is running out (a fifth left, not moved yet), once a
    turn, whichever process sends it; returns how many were told."""
    due = list(Game.objects.filter(warn_at__lte=now, status=GameStatus.PLAYING).select_related("room")
               .order_by("warn_at")[:limit])
    told = 0
    for game in due:
        with transaction.atomic():
            if not Game.objects.filter(pk=game.pk, ply=game.ply, warn_at__isnull=False).update(warn_at=None):
                continue  # another process told them, or the player moved meanwhile
            colour = game.to_move_colour
            player_id = game.red_player_id if colour == "red" else game.yellow_player_id
            if player_id is None or game.deadline is None:
                continue
            left = game.deadline - now
            hours = max(1, round(left.total_seconds() / 3600))
            notify(player_id=player_id, kind="time_running_out", now=now, url=_room_url(game.room.code),
                   key=f"time_running_out:{game.pk}:{game.ply}",
                   data={"room": game.room.code, "game": str(game.pk), "ply": game.ply, "hours": hours,
                         "deadline": game.deadline.isoformat()})
            told += 1
    return told


def _outcome(finished: GameFinished, seat: int) -> str:
    """How the game ended for the player in ``seat``: one of :data:`GAME_OVER`'s keys."""
    if finished.status == GameStatus.ABANDONED:
        return "aborted" if finished.reason == EndReason.ABORTED else "abandoned"
    if finished.winner_seat is None:
        return "drawn"
    won = finished.winner_seat == seat
    if finished.reason == EndReason.TIMEOUT:
        return "won_on_time" if won else "lost_on_time"
    return "won" if won else "lost"


def game_over_notify(finished: GameFinished) -> None:
    """A correspondence game ended: both players are told how (once: keyed by the game)."""
    if finished.days_per_move is None:
        return
    game = Game.objects.select_related("room").filter(pk=finished.game_id).first()
    if game is None:
        return
    people = {str(pid): name for pid, name in Player.objects.filter(
        Q(pk=finished.red_player_id) | Q(pk=finished.yellow_player_id)).values_list("pk", "name")}
    red_seat = finished.red_seat
    with transaction.atomic():
        for player_id, seat, other_id in ((finished.red_player_id, red_seat, finished.yellow_player_id),
                                          (finished.yellow_player_id, 3 - red_seat, finished.red_player_id)):
            if player_id is None:
                continue
            other = people.get(other_id) if other_id is not None else None
            notify(player_id=player_id, kind="game_over", now=game.finished_at or game.turn_started_at,
                   url=_room_url(game.room.code), key=f"game_over:{finished.game_id}",
                   data={"room": game.room.code, "game": finished.game_id, "status": finished.status,
                         "reason": finished.reason, "winner_seat": finished.winner_seat,
                         "outcome": _outcome(finished, seat), "opponent_name": other})
