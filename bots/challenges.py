"""Challenges between people and bots: make, accept, decline, cancel. One transaction each, holding the
challenge's row lock; the accounts' event streams hear of it once committed (:mod:`bots.events`).

Accepting makes an ordinary room as every pairing does (:func:`lobby.play.pairs.room_for_two`): Red hosts
it in seat 1, the other player sits in seat 2, and the game starts (watchable, with its chat and analysis,
rated when asked); the challenger's colour is theirs to choose, or a coin's. Services take ``now``; only
the edges read the clock.

Limits (against scripts; ``docs/bots.md``): a challenger creates at most ``CHALLENGES_PER_HOUR_PER_PLAYER``
challenges an hour (``CHALLENGES_PER_HOUR_PER_ADDRESS`` per client address), has at most ``MAX_OPEN`` waiting
at once, and a player's inbox holds at most ``CHALLENGES_WAITING_PER_PLAYER`` waiting challenges. An accepted
challenge is a new room: it counts against the room quotas (:mod:`lobby.rooms.limits`) of the challenger and,
unless a bot accepts, of the accepter and their address. Accepting checks again what may have changed since
the challenge was made: a banned player, a bot (a game with a bot has a turn timer).

A challenge is live while it waits for an answer (``created``) and is younger than
``CHALLENGE_TTL_SECONDS``; then it expires: every process's loop (:mod:`bots.sweep`) marks those past
their time ``expired`` and tells the challenger, each under its row lock, so once. Until that sweep has
run, a challenge past its time already counts as over: it is not listed, not counted against the
challenger's open ones, and cannot be answered.

Besides the event streams, the people are told by notification (:func:`notifications.services.notify`,
in the same transaction): the challenged of a challenge, the challenger of its answer or its expiry.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext, gettext_lazy, ngettext
from django_stubs_ext import StrPromise

from bots import protocol
from bots.events import challenge_made_on_commit, line_on_commit
from bots.limits import challenge_create_quota_take
from bots.models import Challenge, ChallengeStatus, ColourChoice, DeclineReason
from common.errors import Refused
from common.params import one_of
from lobby.play.pairs import Colour, GameSettings, room_for_two
from lobby.protocol.frames import DAYS_PER_MOVE_CHOICES
from lobby.rooms.limits import rooms_create_quota_take
from notifications.services import notifications_read_key, notify
from players.accounts import username_key
from players.models import Player
from players.services import PlayerEnded
from players.social import BlocksChanged, refuse_blocked_challenge
from ratings.selectors import rating_json, ratings_of

TURN_SECONDS = (30, 60)
# Challenges one player may have waiting for an answer at once.
MAX_OPEN = 10
# Challenges expired by one sweep transaction at most (the rest in the next, a second later).
EXPIRE_BATCH = 100


def challenge_ttl() -> timedelta:
    """How long a challenge waits for an answer (``CHALLENGE_TTL_SECONDS``, read at each call)."""
    return timedelta(seconds=settings.CHALLENGE_TTL_SECONDS)


def live_challenges(*, now: datetime) -> QuerySet[Challenge]:
    """The challenges waiting for an answer and not past their time."""
    return Challenge.objects.filter(status=ChallengeStatus.CREATED, created_at__gt=now - challenge_ttl())


def _player_by_username(username: str) -> Player | None:
    return (Player.objects.select_related("user")
            .filter(username_key=username_key(username), user__isnull=False, closed_at=None).first())


def username_of(player: Player) -> str | None:
    """The account's username; None for a guest (a guest may challenge; only accounts are challenged)."""
    return player.user.username if player.user_id is not None and player.user is not None else None


def challenge_out(challenge: Challenge, *, now: datetime) -> dict[str, Any]:
    """A challenge as answers and streams show it, with both players' ratings now."""
    ratings = ratings_of([challenge.challenger_id, challenge.dest_id], now=now)
    shown = {pid: protocol.player_json(player, rating=rating_json(ratings[pid]), username=username_of(player))
             for pid, player in ((challenge.challenger_id, challenge.challenger), (challenge.dest_id, challenge.dest))}
    return protocol.challenge_json(challenge, challenger=shown[challenge.challenger_id], dest=shown[challenge.dest_id],
                                   expires_at=challenge.created_at + challenge_ttl())


def _tell(line: dict[str, Any], *players: object) -> None:
    for player_id in players:
        line_on_commit(player_id, line)


# --- what the players are told (notifications.kinds: each kind's text, written when shown, in the reader's language)
def _rules_text(shown: Mapping[str, Any]) -> str:
    days, seconds = shown.get("days_per_move"), shown["turn_seconds"]
    if days:
        timer = ngettext("%(days)d day a move", "%(days)d days a move", days) % {"days": days}
    elif seconds:
        timer = gettext("%(seconds)d s a move") % {"seconds": seconds}
    else:
        timer = gettext("no turn timer")
    return (gettext("%(timer)s, ranked") if shown["ranked"] else gettext("%(timer)s, casual")) % {"timer": timer}


def challenge_text(data: Mapping[str, Any]) -> str:
    """``challenge``: who challenges, with their rating, and the rules."""
    shown = data["challenge"]
    challenger, rating = shown["challenger"]["name"], shown["challenger"].get("rating")
    return (gettext("%(name)s (%(rating)s) challenges you: %(rules)s.") if rating
            else gettext("%(name)s challenges you: %(rules)s.")) % {
        "name": challenger, "rating": rating, "rules": _rules_text(shown)}


def challenge_accepted_text(data: Mapping[str, Any]) -> str:
    return gettext("%(name)s accepted your challenge: to the game!") % {"name": data["challenge"]["dest"]["name"]}


# What a decline tells the challenger, by reason.
DECLINED: dict[str, StrPromise] = {
    DeclineReason.GENERIC: gettext_lazy("%(name)s declined your challenge."),
    DeclineReason.LATER: gettext_lazy("%(name)s cannot play now: try later."),
    DeclineReason.RATED: gettext_lazy("%(name)s plays rated games only."),
    DeclineReason.CASUAL: gettext_lazy("%(name)s plays casual games only."),
    DeclineReason.TIMER: gettext_lazy("%(name)s does not play with this turn timer."),
}


def challenge_declined_text(data: Mapping[str, Any]) -> str:
    shown = data["challenge"]
    return str(DECLINED[shown["decline_reason"] or DeclineReason.GENERIC]) % {"name": shown["dest"]["name"]}


def challenge_expired_text(data: Mapping[str, Any]) -> str:
    return gettext("Your challenge to %(name)s expired unanswered.") % {"name": data["challenge"]["dest"]["name"]}


CHALLENGE_TEXTS = {"challenge": challenge_text, "challenge_accepted": challenge_accepted_text,
                   "challenge_declined": challenge_declined_text, "challenge_expired": challenge_expired_text}


def _key(challenge: Challenge) -> str:
    """The key of the challenged's ``challenge`` notification (marked read once the challenge is over)."""
    return f"challenge:{challenge.pk}"


def _notify_answer(challenge: Challenge, shown: dict[str, Any], *, kind: str, url: str, now: datetime) -> None:
    """Tell the challenger what became of their challenge; the challenged's notification of it is read."""
    notify(player_id=challenge.challenger_id, kind=kind, url=url, data={"challenge": shown}, now=now)
    notifications_read_key(player_id=challenge.dest_id, key=_key(challenge), now=now)


def _clean_rules(turn_seconds: object, ranked: object, colour: object,
                 days_per_move: object = None) -> tuple[int | None, bool, str, int | None]:
    if turn_seconds is not None and not one_of(turn_seconds, TURN_SECONDS):
        raise Refused("bad_rules", gettext("turn_seconds is 30 or 60 (or null, between people)."))
    if days_per_move is not None and not one_of(days_per_move, DAYS_PER_MOVE_CHOICES):
        raise Refused("bad_rules", gettext("days_per_move is 1, 2, 3, 5 or 7 (or null: a live game)."))
    if turn_seconds is not None and days_per_move is not None:
        raise Refused("bad_rules", gettext("A game has a turn timer or days per move, not both."))
    if not isinstance(ranked, bool):
        raise Refused("bad_rules", gettext("ranked is true or false."))
    if colour not in ColourChoice.values:
        raise Refused("bad_rules", gettext("colour is random, red or yellow."))
    return turn_seconds, ranked, str(colour), days_per_move


def _refuse_unplayable(*, challenger: Player, dest: Player, turn_seconds: int | None,
                       days_per_move: int | None = None) -> None:
    """Refuse a game these two may not play (checked on creating and again on accepting).

    Raises:
        Refused: timer_required (a game with a bot needs a turn timer or days per move), banned.
    """
    if turn_seconds is None and days_per_move is None and (dest.is_bot or challenger.is_bot):
        raise Refused("timer_required",
                      gettext("A game with a bot needs a turn timer (30 or 60 seconds) or days per move."))
    if challenger.is_banned or dest.is_banned:
        raise Refused("banned", gettext("A banned player cannot play challenges."))
    if challenger.is_closed or dest.is_closed:
        raise Refused("no_player", gettext("This account was closed."))


def challenge_create(*, challenger: Player, username: str, turn_seconds: object = 60, ranked: object = False,
                     colour: object = "random", now: datetime, address: str | None = None,
                     days_per_move: object = None) -> Challenge:
    """``challenger`` invites the account ``username`` to a game; both event streams hear ``challenge``.
    ``address``: the client's, counted with the challenger (module docstring, limits). ``days_per_move``:
    a correspondence game (then without a turn timer).

    Raises:
        Refused: no_player (no such account), self_challenge, blocked (``dest`` blocked ``challenger``),
            bad_rules, timer_required (a game with a bot needs a turn timer), banned, too_many_challenges
            (``MAX_OPEN`` waiting already), inbox_full (the account has ``CHALLENGES_WAITING_PER_PLAYER``
            challenges waiting); RateLimited: the hour's challenges are spent.
    """
    challenge_create_quota_take(player_id=str(challenger.pk), address=address, now=now)
    dest = _player_by_username(username)
    if dest is None:
        raise Refused("no_player", gettext("There is no account %(name)s.") % {"name": username[:24]})
    if dest.pk == challenger.pk:
        raise Refused("self_challenge", gettext("You cannot challenge yourself."))
    refuse_blocked_challenge(challenger=challenger, dest=dest)
    seconds, is_ranked, wanted, days = _clean_rules(turn_seconds, ranked, colour, days_per_move)
    _refuse_unplayable(challenger=challenger, dest=dest, turn_seconds=seconds, days_per_move=days)
    with transaction.atomic():
        # Both rows, in one order (two players challenging each other at once must not deadlock): the
        # challenger's open challenges and the inbox are counted under them.
        list(Player.objects.select_for_update().filter(pk__in=[challenger.pk, dest.pk]).order_by("pk")
             .values_list("pk", flat=True))
        waiting = live_challenges(now=now)
        if waiting.filter(challenger=challenger).count() >= MAX_OPEN:
            raise Refused("too_many_challenges", gettext("At most %(most)s challenges wait for an answer at once.")
                          % {"most": MAX_OPEN})
        if waiting.filter(dest=dest).count() >= settings.CHALLENGES_WAITING_PER_PLAYER:
            raise Refused("inbox_full", gettext("%(name)s has too many challenges waiting; try again later.")
                          % {"name": username[:24]})
        challenge = Challenge.objects.create(
            challenger=challenger, dest=dest, turn_seconds=seconds, ranked=is_ranked, colour=wanted,
            days_per_move=days, created_at=now, updated_at=now,
        )
        challenge_made_on_commit()
        shown = challenge_out(challenge, now=now)
        _tell(protocol.challenge_line(shown), challenger.pk, dest.pk)
        notify(player_id=dest.pk, kind="challenge", url="/challenges", data={"challenge": shown}, key=_key(challenge),
               now=now)
    return challenge


# A challenge answered already, by its status.
_OVER: dict[str, StrPromise] = {
    ChallengeStatus.ACCEPTED: gettext_lazy("This challenge was accepted already."),
    ChallengeStatus.DECLINED: gettext_lazy("This challenge was declined already."),
    ChallengeStatus.CANCELED: gettext_lazy("This challenge was canceled already."),
    ChallengeStatus.EXPIRED: gettext_lazy("This challenge expired."),
}


def _lock(challenge_id: str, *, player: Player, now: datetime) -> Challenge:
    """The challenge, locked, that ``player`` sent or received, still live.

    Raises:
        Refused: no_challenge (none, or not theirs to see), challenge_over (answered, canceled or expired).
    """
    challenge = (Challenge.objects.select_for_update(of=("self",)).select_related("challenger__user", "dest__user")
                 .filter(pk=str(challenge_id)[:16]).first())
    if challenge is None or player.pk not in (challenge.challenger_id, challenge.dest_id):
        raise Refused("no_challenge", gettext("There is no such challenge."))
    if challenge.status != ChallengeStatus.CREATED:
        raise Refused("challenge_over", str(_OVER.get(challenge.status, _OVER[ChallengeStatus.CANCELED])))
    if challenge.created_at <= now - challenge_ttl():
        raise Refused("challenge_over", gettext("This challenge expired."))
    return challenge


def challenge_accept(*, challenge_id: str, player: Player, now: datetime, address: str | None = None) -> Challenge:
    """The challenged player accepts: a room with both seated and the game started; both event streams hear
    ``gameStart`` with their colour. ``address``: the accepter's, counted with the room (module docstring).

    Both players are read again under the lock: a player banned, or turned bot (a game without a turn
    timer), since the challenge was made is refused here, and the challenge stays waiting.

    Raises:
        Refused: no_challenge, challenge_over, not_yours (only the challenged accepts), banned, timer_required;
            RateLimited: a room quota is spent.
    """
    with transaction.atomic():
        challenge = _lock(challenge_id, player=player, now=now)
        if challenge.dest_id != player.pk:
            raise Refused("not_yours", gettext("Only the challenged player accepts a challenge."))
        challenger, dest = challenge.challenger, challenge.dest
        _refuse_unplayable(challenger=challenger, dest=dest, turn_seconds=challenge.turn_seconds,
                           days_per_move=challenge.days_per_move)
        counted = [str(challenger.pk)] + ([] if dest.is_bot else [str(dest.pk)])
        rooms_create_quota_take(address=None if dest.is_bot else address, player_ids=counted, now=now)
        made = room_for_two(first=challenger, second=dest, colour=_CHOSEN[challenge.colour],
                            settings=GameSettings(turn_seconds=challenge.turn_seconds, ranked=challenge.ranked,
                                                  days_per_move=challenge.days_per_move),
                            now=now)
        code, game = made.room.code, made.game
        challenge.status = ChallengeStatus.ACCEPTED
        challenge.room_code, challenge.game_id, challenge.updated_at = code, game.pk, now
        challenge.save(update_fields=["status", "room_code", "game_id", "updated_at"])
        for colour, who in (("red", made.red), ("yellow", made.yellow)):
            line_on_commit(who.pk, protocol.game_start_line(game_id=str(game.pk), room=code, colour=colour))
        _notify_answer(challenge, challenge_out(challenge, now=now), kind="challenge_accepted", url=f"/r/{code}",
                       now=now)
    return challenge


# The challenger's colour, as they chose it.
_CHOSEN: dict[str, Colour] = {ColourChoice.RANDOM: "random", ColourChoice.RED: "red", ColourChoice.YELLOW: "yellow"}


def challenge_decline(*, challenge_id: str, player: Player, reason: object = "generic", now: datetime) -> Challenge:
    """The challenged player declines, saying why (``generic``, ``later``, ``rated``, ``casual``, ``timer``).

    Raises:
        Refused: no_challenge, challenge_over, not_yours, bad_reason.
    """
    if reason not in DeclineReason.values:
        raise Refused("bad_reason", gettext("The reason is one of %(reasons)s.")
                      % {"reasons": ", ".join(DeclineReason.values)})
    with transaction.atomic():
        challenge = _lock(challenge_id, player=player, now=now)
        if challenge.dest_id != player.pk:
            raise Refused("not_yours",
                          gettext("Only the challenged player declines a challenge; the challenger cancels."))
        challenge.status, challenge.decline_reason, challenge.updated_at = ChallengeStatus.DECLINED, str(reason), now
        challenge.save(update_fields=["status", "decline_reason", "updated_at"])
        shown = challenge_out(challenge, now=now)
        _tell(protocol.challenge_line(shown), challenge.challenger_id, challenge.dest_id)
        _notify_answer(challenge, shown, kind="challenge_declined", url=f"/players/{challenge.dest_id}", now=now)
    return challenge


def challenges_blocked(changed: BlocksChanged) -> None:
    """Registered with ``players.social.BLOCKS_CHANGED`` (in the block's transaction): the challenges the
    blocked player sent the blocker that still wait are declined, as a person declines (reason
    ``generic``): the challenger is told no more than that."""
    if not changed.blocking:
        return
    waiting = Challenge.objects.filter(challenger=changed.blocked, dest=changed.blocker, status=ChallengeStatus.CREATED)
    for challenge_id in waiting.values_list("pk", flat=True):
        with contextlib.suppress(Refused):  # past its time meanwhile: it is over all the same
            challenge_decline(challenge_id=challenge_id, player=changed.blocker, now=changed.at)


def challenges_player_ended(ended: PlayerEnded) -> None:
    """Registered with ``players.services.PLAYER_ENDED`` (in its transaction): a banned or closed player's
    waiting challenges end, each under its row lock: those they sent are canceled, those they received
    declined (reason ``generic``), and the other player is told as for a person's answer."""
    if not ended.withdraws:
        return
    player, now = ended.player, ended.at
    waiting = Challenge.objects.filter(status=ChallengeStatus.CREATED)
    for challenge_id, sent in (waiting.filter(challenger=player) | waiting.filter(dest=player)).order_by("pk") \
            .values_list("pk", "challenger_id"):
        answer = challenge_cancel if sent == player.pk else challenge_decline
        with contextlib.suppress(Refused):  # past its time or answered meanwhile: it is over all the same
            answer(challenge_id=challenge_id, player=player, now=now)


def challenge_cancel(*, challenge_id: str, player: Player, now: datetime) -> Challenge:
    """The challenger takes the challenge back.

    Raises:
        Refused: no_challenge, challenge_over, not_yours (only the challenger cancels).
    """
    with transaction.atomic():
        challenge = _lock(challenge_id, player=player, now=now)
        if challenge.challenger_id != player.pk:
            raise Refused("not_yours", gettext("Only the challenger cancels a challenge; the challenged declines."))
        challenge.status, challenge.updated_at = ChallengeStatus.CANCELED, now
        challenge.save(update_fields=["status", "updated_at"])
        line = protocol.challenge_line(challenge_out(challenge, now=now))
        _tell(line, challenge.challenger_id, challenge.dest_id)
        notifications_read_key(player_id=challenge.dest_id, key=_key(challenge), now=now)
    return challenge


def challenges_expire(*, now: datetime) -> int:
    """Expire the live challenges past their time (at most ``EXPIRE_BATCH``), each once however many
    processes sweep: their rows are locked and skipped by another sweep holding them, and only a waiting
    one changes. Both event streams hear ``challengeCanceled`` (status ``expired``); the challenger is
    notified. Returns how many expired."""
    with transaction.atomic():
        due = list(Challenge.objects.select_for_update(of=("self",), skip_locked=True)
                   .select_related("challenger__user", "dest__user")
                   .filter(status=ChallengeStatus.CREATED, created_at__lte=now - challenge_ttl())
                   .order_by("created_at")[:EXPIRE_BATCH])
        for challenge in due:
            challenge.status, challenge.updated_at = ChallengeStatus.EXPIRED, now
            challenge.save(update_fields=["status", "updated_at"])
            shown = challenge_out(challenge, now=now)
            _tell(protocol.challenge_line(shown), challenge.challenger_id, challenge.dest_id)
            _notify_answer(challenge, shown, kind="challenge_expired", url="/challenges", now=now)
    return len(due)


def challenge_get(*, challenge_id: str, player: Player) -> Challenge:
    """A challenge ``player`` sent or received (any status).

    Raises:
        Refused(no_challenge): none, or not theirs.
    """
    rows = Challenge.objects.select_related("challenger__user", "dest__user")
    challenge = rows.filter(pk=str(challenge_id)[:16]).first()
    if challenge is None or player.pk not in (challenge.challenger_id, challenge.dest_id):
        raise Refused("no_challenge", gettext("There is no such challenge."))
    return challenge


def challenges_open(*, player: Player, now: datetime) -> list[Challenge]:
    """The live challenges (waiting for an answer, not past their time) that ``player`` sent or received,
    oldest first."""
    rows = live_challenges(now=now).select_related("challenger__user", "dest__user")
    return list((rows.filter(dest=player) | rows.filter(challenger=player)).order_by("created_at", "pk"))
