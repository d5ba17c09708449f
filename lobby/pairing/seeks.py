"""The quick-pairing pool, shared by every server process through PostgreSQL (or the SQLite file).

Every change is one transaction. A seek is a row tied to one lobby socket; the socket's process keeps
it alive (``seeks_keep_alive``), and the socket deletes it when it cancels or closes. A pairing wave
(:class:`SeekWave`, run by :func:`lobby.realtime.waves.pair_wave`) reads the live seeks, the pure
:func:`lobby.pairing.matching.pair_seekers` pairs them off the database thread, and ``wave_pair`` writes
the pairs: in one transaction it locks the seek rows, drops any pair whose seeker left meanwhile, makes
each room with both seated and the first game started (:func:`lobby.play.pairs.room_for_two`), and marks
both seeks paired. So a seeker is paired at most once, and never after their seek ended. Services take
``now``; only the edges read the clock.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q

from common.errors import Refused
from lobby import events
from lobby.models import PairingWave, Seek
from lobby.pairing.matching import DEFAULT_POLICY, Pool, Seeker, pair_seekers
from lobby.pairing.waves import WaveLease
from lobby.play.pairs import GameSettings, room_for_two
from players.models import Player
from players.services import PlayerEnded, refuse_bots
from players.social import apart_among
from ratings.selectors import ratings_of

log = logging.getLogger(__name__)

# The socket's process refreshes a live seek this often; a seek not refreshed for SEEK_EXPIRY is
# treated as gone (its process died or its page went silent) and is never paired.
HEARTBEAT = timedelta(seconds=1)
SEEK_EXPIRY = timedelta(seconds=6)
# A paired seek stays (so its socket can learn the room from it) until the socket closes, or this long.
PAIRED_KEPT = timedelta(minutes=5)


def max_wait() -> timedelta:
    """How long a seek may wait before it is ended with ``timeout`` (``SEEK_MAX_WAIT_SECONDS``)."""
    return timedelta(seconds=settings.SEEK_MAX_WAIT_SECONDS)


def wave_every() -> timedelta:
    """The pace of pairing waves across all processes (``PAIRING_WAVE_SECONDS``)."""
    return timedelta(seconds=settings.PAIRING_WAVE_SECONDS)


def seeker_of(seek: Seek) -> Seeker:
    """The pure pairing's view of a seek row."""
    return Seeker(
        seek_id=seek.pk,
        player_id=str(seek.player_id),
        rating=seek.rating,
        since=seek.since,
        pool=Pool(turn_seconds=seek.turn_seconds, ranked=seek.ranked),
    )


def seekers_apart(seekers: Sequence[Seeker]) -> list[Seeker]:
    """``seekers``, each told whom among them it is never paired with (a block either way; one query)."""
    apart = apart_among(seeker.player_id for seeker in seekers)
    return [replace(seeker, apart=apart[seeker.player_id]) if seeker.player_id in apart else seeker
            for seeker in seekers]


# --- one socket's seek -----------------------------------------------------------------------------
def seek_enter(*, player: Player, channel_name: str, pool: Pool, now: datetime) -> Seeker:
    """``player`` starts seeking on the socket ``channel_name``; returns the new seek.

    One seek per player: a seek the player had on another socket (another tab) is replaced, and that
    socket is told (``replaced``). A seek this socket already had is replaced too (the consumer
    refuses a second ``seek`` while one is waiting, with ``already_seeking``).

    Raises:
        Refused(bot_account): bot accounts play challenges only.
    """
    refuse_bots(player)
    for attempt in range(2):
        try:
            with transaction.atomic():
                return _seek_replace(player=player, channel_name=channel_name, pool=pool, now=now)
        except IntegrityError:
            # Two tabs of one player seeking at the same instant: the other's row landed first.
            if attempt:
                raise
    raise AssertionError("unreachable")


def _seek_replace(*, player: Player, channel_name: str, pool: Pool, now: datetime) -> Seeker:
    for old in Seek.objects.select_for_update().filter(Q(player=player) | Q(channel_name=channel_name)):
        if old.room_code is None and old.channel_name != channel_name:
            events.seek_ended_on_commit(channel_name=old.channel_name, seek_id=old.pk, reason="replaced")
        old.delete()
    rating = ratings_of([player.pk], now=now)[player.pk].rating
    seek = Seek.objects.create(
        player=player,
        channel_name=channel_name,
        turn_seconds=pool.turn_seconds,
        ranked=pool.ranked,
        rating=rating,
        since=now,
        last_seen_at=now,
    )
    return seeker_of(seek)


class CancelOutcome(enum.Enum):
    CANCELLED = "cancelled"  # the seek was waiting and is gone now
    PAIRED = "paired"  # too late: a wave paired it first (``room_code`` says where)
    GONE = "gone"  # there was no such seek any more (replaced, expired)


@dataclass(frozen=True, slots=True)
class Cancelled:
    outcome: CancelOutcome
    room_code: str | None = None


def seek_cancel(*, seek_id: int) -> Cancelled:
    """End a waiting seek. A wave that paired it first wins: the outcome then says where it was paired.

    The row lock makes the two exclusive: a wave holding the row finishes first, and a cancel that
    got the row first removes it before any wave can pair it.
    """
    with transaction.atomic():
        seek = Seek.objects.select_for_update().filter(pk=seek_id).first()
        if seek is None:
            return Cancelled(CancelOutcome.GONE)
        if seek.room_code is not None:
            return Cancelled(CancelOutcome.PAIRED, seek.room_code)
        seek.delete()
        return Cancelled(CancelOutcome.CANCELLED)


def seek_leave(*, channel_name: str) -> None:
    """The socket closed: its seek (waiting or paired) goes with it."""
    Seek.objects.filter(channel_name=channel_name).delete()


def seeks_player_ended(ended: PlayerEnded) -> None:
    """Registered with ``players.services.PLAYER_ENDED``: a banned or closed player's waiting seek ends (its
    socket is told, reason ``banned`` or ``closed``), under its row lock, so no wave pairs it after."""
    if not ended.withdraws:
        return
    for seek in Seek.objects.select_for_update().filter(player=ended.player, room_code=None):
        events.seek_ended_on_commit(channel_name=seek.channel_name, seek_id=seek.pk, reason=ended.reason.value)
        seek.delete()


def seek_replaced(*, seek_id: int, player: Player) -> bool:
    """Whether the player's seek ``seek_id`` is gone because the player seeks on another socket now."""
    return Seek.objects.filter(player=player).exclude(pk=seek_id).exists()


@dataclass(frozen=True, slots=True)
class SeekStatus:
    seek_id: int
    room_code: str | None


def seeks_keep_alive(*, alive: Sequence[str], watched: Sequence[str], now: datetime) -> dict[str, SeekStatus]:
    """Refresh the waiting seeks of the sockets in ``alive``; return the seeks of ``watched`` by channel.

    Called by each process every ``HEARTBEAT`` for its own seeking sockets: one UPDATE and one SELECT
    whatever their number. A socket missing from the answer has no seek any more.
    """
    if alive:
        Seek.objects.filter(channel_name__in=list(alive), room_code=None).update(last_seen_at=now)
    if not watched:
        return {}
    rows = Seek.objects.filter(channel_name__in=list(watched)).values_list("channel_name", "pk", "room_code")
    return {channel: SeekStatus(seek_id=pk, room_code=code) for channel, pk, code in rows}


# --- waves -----------------------------------------------------------------------------------------
class SeekWave:
    """Quick pairing's wave, as :func:`lobby.realtime.waves.pair_wave` runs it: the pool's one
    ``PairingWave`` row is claimed, the live seekers read, paired by rating (the pure
    :func:`lobby.pairing.matching.pair_seekers`) and written (:func:`wave_pair`)."""

    def lease(self, *, now: datetime) -> WaveLease:
        return WaveLease(model=PairingWave, pk=1, started="started_at", until="running_until", every=wave_every(),
                         create=True)

    def read(self, *, now: datetime) -> list[Seeker]:
        """The live, waiting seekers, once the pool is swept (:func:`seeks_sweep`)."""
        seeks_sweep(now=now)
        live = list(Seek.objects.filter(room_code=None, last_seen_at__gte=now - SEEK_EXPIRY).order_by("pk"))
        return seekers_apart([seeker_of(seek) for seek in live])

    def pair(self, waiting: Sequence[Seeker], *, now: datetime) -> list[tuple[Seeker, Seeker]]:
        return pair_seekers(waiting, now=now, policy=DEFAULT_POLICY)

    def write(self, pairs: Sequence[tuple[Seeker, Seeker]], *, now: datetime) -> list[Pairing]:
        return wave_pair(pairs=pairs, now=now)


SEEK_WAVE = SeekWave()


def seeks_sweep(*, now: datetime) -> int:
    """End the seeks that expired or waited too long (their sockets are told); returns how many.

    Seeks not refreshed within ``SEEK_EXPIRY`` (their process died or their page went silent) and seeks
    waiting past the maximum wait are ended; paired seeks whose socket never closed are forgotten after
    ``PAIRED_KEPT``. The process that won the wave sweeps before it reads.
    """
    ended = 0
    with transaction.atomic():
        stale = Seek.objects.select_for_update().filter(room_code=None, last_seen_at__lt=now - SEEK_EXPIRY)
        too_long = Seek.objects.select_for_update().filter(room_code=None, since__lt=now - max_wait())
        for reason, rows in (("expired", stale), ("timeout", too_long)):
            for seek in rows:
                events.seek_ended_on_commit(channel_name=seek.channel_name, seek_id=seek.pk, reason=reason)
                seek.delete()
                ended += 1
        Seek.objects.filter(room_code__isnull=False, paired_at__lt=now - PAIRED_KEPT).delete()
    return ended


@dataclass(frozen=True, slots=True)
class Pairing:
    code: str
    seek_ids: tuple[int, int]


def seek_pair_write(*, pair: tuple[Seeker, Seeker], now: datetime) -> Pairing | None:
    """Write one pair of a wave: a room with both seated and the first game started; None if dropped.

    One transaction holding both seek rows: a pair whose seeker is no longer waiting and alive (it
    cancelled, closed its page, was replaced, expired, or another wave paired it) is dropped, and its
    partner waits for the next wave; so is a pair one of whom blocked the other since the wave read them.
    A coin decides who is Red. Both sockets are told the room's code once committed. Pairs of a wave share
    no seeker, so they may be written concurrently.
    """
    a, b = pair
    with transaction.atomic():
        rows = {
            seek.pk: seek
            for seek in Seek.objects.select_for_update()
            .filter(pk__in=sorted((a.seek_id, b.seek_id)), room_code=None, last_seen_at__gte=now - SEEK_EXPIRY)
            .order_by("pk")
        }
        one, two = rows.get(a.seek_id), rows.get(b.seek_id)
        if one is None or two is None or one.player_id == two.player_id:
            return None
        if apart_among([one.player_id, two.player_id]):
            return None  # one blocked the other since the wave read the pool
        players = Player.objects.in_bulk([one.player_id, two.player_id])
        gone = [seek for seek in (one, two) if players[seek.player_id].is_banned or players[seek.player_id].is_closed]
        if gone:  # banned or closed since they sought: their seeks end, the other waits for the next wave
            for seek in gone:
                reason = "banned" if players[seek.player_id].is_banned else "closed"
                events.seek_ended_on_commit(channel_name=seek.channel_name, seek_id=seek.pk, reason=reason)
                seek.delete()
            return None
        pool = GameSettings(turn_seconds=one.turn_seconds, ranked=one.ranked)
        code = room_for_two(first=players[one.player_id], second=players[two.player_id], settings=pool,
                            now=now).room.code
        Seek.objects.filter(pk__in=[one.pk, two.pk]).update(room_code=code, paired_at=now)
        for seek in (one, two):
            events.seek_paired_on_commit(channel_name=seek.channel_name, seek_id=seek.pk, code=code)
        return Pairing(code=code, seek_ids=(one.pk, two.pk))


def wave_pair(*, pairs: Sequence[tuple[Seeker, Seeker]], now: datetime) -> list[Pairing]:
    """Write pairs one after the other (see :func:`seek_pair_write`), each committed (and told) as soon as
    it is written, on one database connection; returns those made. A pair refused (its transaction rolled
    back) is dropped alone: the pairs after it are written all the same."""
    made = []
    for pair in pairs:
        try:
            pairing = seek_pair_write(pair=pair, now=now)
        except Refused as refused:
            log.warning("seeks %s and %s not paired: %s", pair[0].seek_id, pair[1].seek_id, refused.code)
            continue
        if pairing is not None:
            made.append(pairing)
    return made
