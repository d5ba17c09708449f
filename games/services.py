"""Every state change of a game record but its end: begin it, play a move, take moves back, draw by
agreement, hand a seat over. Its end, its result and the hook the layers above hear it by are
``games.endings``; its automatic actions (when one falls due, and the lease that lets one process act on
it) are ``lobby.timers``'. A change a due time follows is made in two steps, so that nothing here calls
back up: in memory first (:func:`game_new`, :func:`game_move`, :func:`game_take_back`), then the caller
stores the game's next due time on ``game.due_at`` and has it written with the change, in the same
statement (:func:`game_begin`, :func:`game_move_write`, :func:`game_take_back_write`; a move also ends any
lease). The games layer knows games, not rooms: a caller above holds the lock that serialises one game's
changes (its room's row) and calls these inside its transaction.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, overload
from uuid import UUID

from django.conf import settings
from django.db import DataError, transaction
from django.utils.translation import gettext

from common import metrics
from common.errors import Refused
from common.rows import Rows
from common.translation import render
from games.endings import END_FIELDS, game_end_by_move, game_finish, game_is_ranked, post_game_on_commit
from games.engine import EngineError, Peg, Position
from games.models import EndReason, Game, GameStatus, Move
from games.selectors import game_position

log = logging.getLogger(__name__)

# The metric's kind of a move, by ``Move.cpu_reason``.
MOVE_KINDS = {"": "person", "seat": "cpu", "timeout": "timeout", "away": "stand_in"}


def turn_deadline(turn_seconds: int | None, start: datetime) -> datetime | None:
    """When a turn that starts at ``start`` runs out (None without a turn timer; ``TURN_TIME_SCALE``
    shortens every turn in tests)."""
    return None if turn_seconds is None else start + timedelta(seconds=turn_seconds * settings.TURN_TIME_SCALE)


def correspondence_period(days_per_move: int) -> timedelta:
    """A correspondence move's time: ``days_per_move`` days of ``CORRESPONDENCE_DAY_SECONDS`` each."""
    return timedelta(seconds=days_per_move * settings.CORRESPONDENCE_DAY_SECONDS)


# Correspondence: the player to move is told once when this fraction of their time is left.
WARN_FRACTION = 5


def _move_times(game: Game, start: datetime) -> tuple[datetime | None, datetime | None]:
    """The deadline and the time-running-out warning of the turn that starts at ``start``: the turn
    timer of the colour to move, or the days per move of a correspondence game (warned when a fifth of
    the time is left)."""
    if game.days_per_move is not None:
        period = correspondence_period(game.days_per_move)
        return start + period, start + period - period / WARN_FRACTION
    return turn_deadline(game.turn_seconds_of(_to_move_colour(game)), start), None


def game_begin(game: Game) -> None:
    """Write ``game``, a new game made by :func:`game_new` (Red to move), with the first due time its caller
    stored on ``game.due_at`` (the layer above owns the timers; else it has none): one INSERT."""
    game.save(force_insert=True)


def game_new(
    *, room_id: int, number: int, red_seat: int, red_player_id: UUID | None, yellow_player_id: UUID | None,
    red_cpu: bool, yellow_cpu: bool, cpu_level: int, ranked: bool, turn_seconds: int | None, now: datetime,
    stakes: dict[str, Any] | None = None, tournament_id: int | None = None, days_per_move: int | None = None,
) -> Game:
    """A new game, Red to move, not written yet (:func:`game_begin` writes one, :func:`games_begin` many at
    once). ``ranked`` is forced off when a CPU plays a seat.

    ``days_per_move``: a correspondence game (Red's first move is due that many days from now).
    ``stakes``: what the room shows of the seats' ratings during the game (see ``Game.stakes``).
    ``tournament_id``: the arena that paired the game, if one did.
    """
    game = Game(
        room_id=room_id,
        number=number,
        red_seat=red_seat,
        red_player_id=red_player_id,
        yellow_player_id=yellow_player_id,
        red_cpu=red_cpu,
        yellow_cpu=yellow_cpu,
        cpu_level=cpu_level,
        ranked=game_is_ranked(ranked=ranked, red_cpu=red_cpu, yellow_cpu=yellow_cpu),
        turn_seconds=turn_seconds,
        days_per_move=days_per_move,
        started_at=now,
        turn_started_at=now,
        stakes=stakes or {},
        tournament_id=tournament_id,
    )
    game.deadline, game.warn_at = _move_times(game, now)
    return game


def games_begin(games: list[Game]) -> None:
    """Write new games (made by :func:`game_new`, their due times set) in one INSERT."""
    Game.objects.bulk_create(games)


# A move's row, and the game row it changes, on every move's path: SQL written once (common.rows).
_MOVE_COLUMNS = ["game_id", "ply", "peg", "seat", "cpu", "cpu_reason", "played_at"]
_MOVES = Rows(Move)
_GAMES = Rows(Game)


@dataclass(frozen=True, slots=True)
class Guard:
    """A caller's condition on a move, checked by the move's own statement (:func:`game_move_write`).

    ``sql`` is one data-modifying statement of the caller's (an ``UPDATE ... RETURNING``) that returns a
    row when what the caller read is still so, and changes what the caller's lock would have changed
    (the room's version); no row when it is not so. ``params``: its parameters."""

    sql: str
    params: list[Any]


@dataclass(frozen=True, slots=True)
class Played:
    """A move made in memory by :func:`game_move` (written by :func:`game_move_write`): ``level`` is the
    height the bead landed at (1..4), ``position`` the position after it (its ``outcome`` says whether it
    ended the game). ``ply``, ``cpu_reason`` and ``at`` are the move row's; ``before`` is the game's move
    fields and position as they were (a guarded write that does not land puts them back)."""

    peg: Peg
    level: int
    seat: int
    cpu: bool
    position: Position
    ply: int
    cpu_reason: str
    at: datetime
    before: tuple[tuple[Any, ...], Position]


# The fields a move changes on a game still being played: written in one UPDATE.
_MOVE_FIELDS = ["ply", "record", "lease_until", "turn_started_at", "deadline", "due_at", "draw_offer_seat",
                "takeback_offer_seat"]
_CORRESPONDENCE_MOVE_FIELDS = [*_MOVE_FIELDS, "warn_at"]
# A move that ends the game writes these (its end with it: games.endings.END_FIELDS).
_ENDING_MOVE_FIELDS = list(dict.fromkeys([*_MOVE_FIELDS, *END_FIELDS]))
# What a move may change in memory, put back when its guarded write does not land.
_KEPT_FIELDS = list(dict.fromkeys([*_CORRESPONDENCE_MOVE_FIELDS, *END_FIELDS]))


def game_move(game: Game, peg: Peg, *, seat: int, cpu_reason: str, now: datetime) -> Played:
    """``game`` in memory after ``seat``'s bead on ``peg`` (whose turn the caller checked), nothing written
    yet: its ply, record and offers, its lease ended and, while it goes on, its turn's times; a line or a
    full board ends it (:func:`games.endings.game_end`: its status, winner, line and reason). The caller
    then stores the game's next due time on ``game.due_at`` (the layer above owns the timers; left as it
    was otherwise) and writes the move with :func:`game_move_write`, the one place moves are written.

    ``cpu_reason`` is empty for a person, else why the CPU played (``seat``, ``timeout``, ``away``).

    Raises:
        Refused(peg_full): the peg holds four beads already (nothing changed).
    """
    before = game_position(game)
    after = _position_after(game, peg)
    kept = tuple(getattr(game, name) for name in _KEPT_FIELDS)
    ply = game.ply
    game.ply += 1
    _position_set(game, after)
    game.lease_until = None
    _offers_lapse(game, mover=seat)
    if after.outcome is None:
        game.turn_started_at = now
        game.deadline, game.warn_at = _move_times(game, now)
    else:
        game_end_by_move(game, after.outcome, seat=seat, now=now)
    return Played(peg=peg, level=after.height(peg), seat=seat, cpu=bool(cpu_reason), position=after, ply=ply,
                  cpu_reason=cpu_reason, at=now, before=(kept, before))


@overload
def game_move_write(game: Game, played: Played, *, guard: None = None) -> None: ...
@overload
def game_move_write(game: Game, played: Played, *, guard: Guard) -> tuple[Any, ...] | None: ...
def game_move_write(game: Game, played: Played, *, guard: Guard | None = None) -> tuple[Any, ...] | None:
    """Write the move :func:`game_move` made of ``game``: the Move INSERT and one UPDATE of the game row (with
    the due time its caller stored; a move that ended the game writes its end with it, and its post-game
    work follows once committed: ``games.postgame``). Without ``guard``, the caller holds the lock that
    serialises the game's changes, inside its transaction.

    With ``guard``, for a game the caller read without a lock: written only if ``guard`` still holds and
    the game is still at its ply and being played (:func:`_guarded_write`: on PostgreSQL the guard, the
    game's UPDATE and the move's INSERT as one statement of data-modifying CTEs, and the caller is in no
    transaction; elsewhere, SQLite, the three in one transaction). Returns the guard's row, or None
    having put ``game`` back in memory as it was (nothing written): when the guard or the game's ply no
    longer hold, and without trying for a move that is not written so (a correspondence game's, whose
    hook runs inside the move's transaction).
    """
    if guard is not None:
        return _move_write_guarded(game, played, guard)
    _MOVES.execute(_MOVES.insert_sql(_MOVE_COLUMNS), _move_params(game, played))  # every move's path
    transaction.on_commit(_counter(played.cpu_reason).inc)  # counted once applied: a rolled-back move is not
    fields = _write_fields(game, played)
    _GAMES.execute(_GAMES.update_sql(fields), _GAMES.update_params(game, fields))
    if played.position.outcome is not None:
        post_game_on_commit()
    return None


def _write_fields(game: Game, played: Played) -> list[str]:
    if played.position.outcome is not None:
        return _ENDING_MOVE_FIELDS
    return _MOVE_FIELDS if game.days_per_move is None else _CORRESPONDENCE_MOVE_FIELDS


def _move_write_guarded(game: Game, played: Played, guard: Guard) -> tuple[Any, ...] | None:
    if game.days_per_move is not None:
        _move_undo(game, played)
        return None
    fields = _write_fields(game, played)
    game_params = _GAMES.values([*fields, *_GAME_IF], [*(getattr(game, name) for name in fields), game.pk,
                                                      played.ply, GameStatus.PLAYING])
    row = _guarded_write(guard, fields, game_params, _move_params(game, played))
    if row is None:
        _move_undo(game, played)
        return None
    transaction.on_commit(_counter(played.cpu_reason).inc)  # at once: the statement was its own transaction
    if played.position.outcome is not None:
        post_game_on_commit()
    return row


def _move_params(game: Game, played: Played) -> list[Any]:
    return _MOVES.values(_MOVE_COLUMNS, [game.pk, played.ply, str(played.peg), played.seat, played.cpu,
                                         played.cpu_reason, played.at])


def _move_undo(game: Game, played: Played) -> None:
    """``game`` in memory as it was before :func:`game_move` made ``played`` of it."""
    kept, position = played.before
    for name, value in zip(_KEPT_FIELDS, kept, strict=True):
        setattr(game, name, value)
    _position_set(game, position)


_GAME_IF = ["id", "ply", "status"]  # the game's UPDATE of a guarded move: this game, at this ply, being played


def _guarded_write(guard: Guard, fields: list[str], game_params: list[Any],
                   move_params: list[Any]) -> tuple[Any, ...] | None:
    """Run the guard, the game's UPDATE (its ``fields``, then ``_GAME_IF``) and the move's INSERT; the
    guard's row, or None when one of them changed nothing (and then none of them did)."""
    games, moves = _GAMES, _MOVES
    update = games.update_where_sql(fields, _GAME_IF)
    if games.connection.vendor == "postgresql":
        sql = games.statement(("guarded", guard.sql, *fields), lambda: (
            f"WITH guard AS ({guard.sql}), game AS ({update} AND EXISTS (SELECT 1 FROM guard) RETURNING 1), "
            f"move AS ({moves.insert_from_sql(_MOVE_COLUMNS, 'game')} RETURNING 1) "
            # A guard that held over a game that did not divides by zero: the statement fails whole.
            "SELECT guard.*, 1 / (SELECT count(*) FROM move) FROM guard"))
        try:
            rows = games.execute_bound(sql, [*guard.params, *game_params, *move_params])
        except DataError:
            return None
        return tuple(rows[0][:-1]) if rows else None
    try:
        with transaction.atomic():
            found = games.execute(guard.sql, guard.params)
            if not found or not games.execute(f"{update} RETURNING 1", game_params):
                raise _Lapsed
            moves.execute(moves.insert_sql(_MOVE_COLUMNS), move_params)
    except _Lapsed:
        return None
    return tuple(found[0])


class _Lapsed(Exception):
    """What the caller read no longer holds: roll the guarded write back."""


def _position_after(game: Game, peg: Peg) -> Position:
    try:
        return game_position(game).play(peg)
    except EngineError as exc:
        raise Refused(exc.code, render(exc)) from None


def _counter(cpu_reason: str) -> Any:  # a prometheus child counter (untyped)
    return _MOVE_COUNTERS[MOVE_KINDS[cpu_reason]]


_MOVE_COUNTERS = {kind: metrics.MOVES.labels(kind=kind) for kind in MOVE_KINDS.values()}  # looked up once


def _position_set(game: Game, position: Position) -> None:
    """``game``'s record becomes ``position``'s, and ``position`` is kept as the game's (``game_position``)."""
    game.record = position.record()
    game._position = (game.record, position)  # type: ignore[attr-defined]  # a cache beside the fields


def game_follow(game: Game, *, peg: str, seat: int, ply: int) -> bool:
    """``game`` in memory after a move of ``seat`` on ``peg`` that another process wrote and told of
    (``ply``: the moves played after it), as far as the next move reads it: its ply, record and offers,
    its lease ended (the times of its turn stay as they were: the next move sets its own). Returns
    False, changing nothing, when the move does not follow the game (another ply) or ended it."""
    if game.status != GameStatus.PLAYING or ply != game.ply + 1 or game.to_move_seat != seat:
        return False
    game.ply = ply
    game.record = f"{game.record} {peg}" if game.record else peg
    game.lease_until = None
    _offers_lapse(game, mover=seat)
    return True


def _offers_lapse(game: Game, *, mover: int) -> None:
    """What a move by ``mover`` does to the offers standing: a draw offer lapses when the offering
    side's opponent moves (the move is its answer); a takeback request lapses on any move (the move
    it asked about is no longer the last)."""
    if game.draw_offer_seat is not None and game.draw_offer_seat != mover:
        game.draw_offer_seat = None
    game.takeback_offer_seat = None


def game_take_back(game: Game, *, plies: int, now: datetime) -> None:
    """``game`` (being played) in memory as it was before its last ``plies`` moves, nothing written yet: the
    record, the ply and the turn (which starts anew at ``now``, with its deadline) follow, and no offer
    stands. The caller then stores its next due time on ``game.due_at`` and writes it with
    :func:`game_take_back_write`.

    Raises:
        Refused: game_over, nothing_to_take_back (fewer than ``plies`` moves were played).
    """
    if game.status != GameStatus.PLAYING:
        raise Refused("game_over", gettext("The game is over."))
    if not 1 <= plies <= game.ply:
        raise Refused("nothing_to_take_back", gettext("There is no move of yours to take back."))
    kept = game.record.split()[: game.ply - plies]
    game.ply = len(kept)
    game.record = " ".join(kept)
    game.lease_until = None
    game.draw_offer_seat = game.takeback_offer_seat = None
    game.turn_started_at = now
    game.deadline = turn_deadline(game.turn_seconds_of(_to_move_colour(game)), now)


def game_take_back_write(game: Game) -> None:
    """Write the takeback :func:`game_take_back` made of ``game``: its moves from its ply on deleted, its row
    updated. The caller holds the lock that serialises the game, inside its transaction."""
    Move.objects.filter(game=game, ply__gte=game.ply).delete()
    game.save(update_fields=_MOVE_FIELDS)


def game_agree_draw(game: Game, *, now: datetime) -> None:
    """Both players agreed to a draw: ``game`` ends drawn (``agreement``), rated as a draw if it counts."""
    game_finish(game, status=GameStatus.DRAWN, reason=EndReason.AGREEMENT, winner_seat=None, line=None, now=now)


def _to_move_colour(game: Game) -> str:
    return "red" if game.ply % 2 == 0 else "yellow"


def game_halve_turns(game: Game, *, colour: str) -> None:
    """From now on ``colour`` plays ``game`` on half its turn timer (its current turn too, counted
    from the turn's start). Only before that colour's first move, once, in a game with a turn timer.
    The caller holds the lock that serialises the game and reschedules its due time.

    Raises:
        Refused: game_over, no_timer, already_halved, too_late (that colour has moved already).
    """
    if game.status != GameStatus.PLAYING:
        raise Refused("game_over", gettext("The game is over."))
    if game.turn_seconds is None:
        raise Refused("no_timer", gettext("This game has no turn timer to halve."))
    field = "red_halved" if colour == "red" else "yellow_halved"
    if getattr(game, field):
        raise Refused("already_halved", gettext("Your turn timer is halved already."))
    if game.ply > (0 if colour == "red" else 1):
        raise Refused("too_late", gettext("Only before your first move."))
    setattr(game, field, True)
    fields = [field]
    if _to_move_colour(game) == colour:
        game.deadline = turn_deadline(game.turn_seconds_of(colour), game.turn_started_at)
        fields.append("deadline")
    game.save(update_fields=fields)


def game_hand_over(game: Game, *, from_player_id: UUID, to_player_id: UUID) -> None:
    """From now on ``to_player_id`` plays the colour ``from_player_id`` played in ``game`` (being played).

    Used when a device's guest logs into its account: the account carries the guest's game on. The
    result (and rating, if ranked) goes to the account.
    """
    if game.status != GameStatus.PLAYING:
        return
    if game.red_player_id == from_player_id:
        game.red_player_id = to_player_id
    if game.yellow_player_id == from_player_id:
        game.yellow_player_id = to_player_id
    game.save(update_fields=["red_player", "yellow_player"])
