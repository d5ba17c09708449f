"""games.services, called directly: a game begun, a move made in memory then written (and the guarded write
of a held room's move), a move refused, a line ending the game, takebacks, halved turns, a seat handed over,
a move followed from another process, and the position kept on the instance."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction

from common.errors import Refused
from games import services as games
from games.engine import Peg
from games.models import EndReason, Game, GameStatus, Move
from games.selectors import game_position
from lobby.models import Room
from lobby.rooms.services import room_change_guard
from tests.games.gamekit import T0, at, begun, fresh, move, two_players

WIN_FOR_RED = ["a1", "b1", "a1", "b1", "a1", "b1", "a1"]  # Red stacks four beads on a1


def moves_of(game: Game) -> list[tuple[int, str, int, bool, str]]:
    return list(Move.objects.filter(game=game).order_by("ply").values_list("ply", "peg", "seat", "cpu", "cpu_reason"))


@pytest.mark.django_db
def test_a_game_begun_is_written_with_the_due_time_its_caller_stored():
    ann, bob = two_players()
    room = Room.objects.create(host=ann, created_at=T0, last_activity_at=T0, code="ABCDEF")
    game = games.game_new(room_id=room.pk, number=1, red_seat=2, red_player_id=bob.pk, yellow_player_id=ann.pk,
                          red_cpu=False, yellow_cpu=False, cpu_level=2, ranked=True, turn_seconds=30, now=T0)
    game.due_at = at(30)
    games.game_begin(game)
    stored = fresh(game)
    assert (stored.status, stored.ply, stored.record, stored.to_move_seat, stored.ranked) == (
        GameStatus.PLAYING, 0, "", 2, True)
    assert stored.deadline == at(30) and stored.due_at == at(30) and stored.warn_at is None


@pytest.mark.django_db
def test_a_cpu_seat_makes_the_game_unranked():
    game = begun(ranked=True, cpu=True)
    assert fresh(game).ranked is False


@pytest.mark.django_db
def test_a_move_is_made_in_memory_then_written_with_the_due_time_stored_between():
    game = begun(turn_seconds=30)
    game.draw_offer_seat, game.lease_until = 2, at(5)  # the opponent's offer lapses, the lease ends
    played = games.game_move(game, Peg.from_name("b2"), seat=1, cpu_reason="", now=at(3))
    assert (game.ply, game.record, game.turn_started_at, game.deadline) == (1, "b2", at(3), at(33))
    assert game.draw_offer_seat is None and game.lease_until is None
    assert fresh(game).ply == 0  # nothing written yet
    game.due_at = at(33)
    with transaction.atomic():
        games.game_move_write(game, played)
    stored = fresh(game)
    assert (stored.ply, stored.record, stored.to_move_seat) == (1, "b2", 2)
    assert stored.due_at == at(33) and stored.deadline == at(33)
    assert moves_of(game) == [(0, "b2", 1, False, "")]
    assert (played.peg, played.level, played.seat, played.cpu, played.ply) == (Peg.from_name("b2"), 1, 1, False, 0)


@pytest.mark.django_db
def test_a_cpu_move_is_written_with_its_reason_and_a_bead_lands_on_the_one_below():
    game = begun()
    move(game, "c3")
    played = move(game, "c3", cpu_reason="timeout")
    assert played.level == 2 and played.cpu
    assert moves_of(game)[-1] == (1, "c3", 2, True, "timeout")


@pytest.mark.django_db
def test_a_bead_on_a_full_peg_is_refused_and_changes_nothing():
    game = begun()
    for _ in range(4):
        move(game, "d4")
    before = (game.ply, game.record, game.turn_started_at)
    with pytest.raises(Refused) as refused:
        games.game_move(game, Peg.from_name("d4"), seat=1, cpu_reason="", now=at(9))
    assert refused.value.code == "peg_full"
    assert (game.ply, game.record, game.turn_started_at) == before and fresh(game).ply == 4


@pytest.mark.django_db
def test_a_line_ends_the_game_won_by_the_mover_with_its_cells():
    game = begun(turn_seconds=30)
    for ply, peg in enumerate(WIN_FOR_RED):
        move(game, peg, now=at(ply))
    stored = fresh(game)
    assert (stored.status, stored.reason, stored.winner_seat, stored.ply) == (GameStatus.WON, EndReason.LINE, 1, 7)
    assert stored.line == [{"peg": "a1", "level": level} for level in (1, 2, 3, 4)]
    assert stored.finished_at == at(6) and stored.deadline is None and stored.due_at is None
    with pytest.raises(Refused):  # over: the position refuses another bead
        games.game_move(game, Peg.from_name("c1"), seat=2, cpu_reason="", now=at(8))


@pytest.mark.django_db
def test_a_correspondence_move_sets_the_warning_with_the_deadline(settings):
    settings.CORRESPONDENCE_DAY_SECONDS = 100
    game = begun(days_per_move=2)
    move(game, "a1", now=at(10))
    stored = fresh(game)
    assert stored.deadline == at(210) and stored.warn_at == at(210) - timedelta(seconds=40)


@pytest.mark.django_db(transaction=True)
def test_a_guarded_move_is_written_only_while_the_guard_holds():
    game = begun()
    room = Room.objects.get(pk=game.room_id)
    played = games.game_move(game, Peg.from_name("a2"), seat=1, cpu_reason="", now=at(1))
    row = games.game_move_write(game, played, guard=room_change_guard(room, now=at(1)))
    assert row is not None and row[0] == room.version + 1
    assert fresh(game).record == "a2" and Room.objects.get(pk=room.pk).version == room.version + 1
    # The same copy of the room again: its version moved, nothing is written and the game is put back.
    played = games.game_move(game, Peg.from_name("b2"), seat=2, cpu_reason="", now=at(2))
    assert games.game_move_write(game, played, guard=room_change_guard(room, now=at(2))) is None
    assert (game.ply, game.record, game.turn_started_at) == (1, "a2", at(1))
    assert moves_of(game) == [(0, "a2", 1, False, "")] and fresh(game).ply == 1


@pytest.mark.django_db(transaction=True)
def test_a_guarded_move_that_ends_the_game_writes_its_end_with_it_or_nothing():
    """The end (status, winner, line, reason, its post-game marker) is written by the move's one statement;
    when the guard no longer holds, nothing is, and the game is put back in memory, still being played."""
    game = begun(ranked=True)
    room = Room.objects.get(pk=game.room_id)
    for peg in WIN_FOR_RED[:-1]:
        move(game, peg)
    stale = Room.objects.get(pk=room.pk)
    Room.objects.filter(pk=room.pk).update(version=stale.version + 1)  # another change of the room meanwhile
    played = games.game_move(game, Peg.from_name("a1"), seat=1, cpu_reason="", now=at(9))
    assert (game.status, game.post_due) == (GameStatus.WON, at(9))  # ended in memory
    assert games.game_move_write(game, played, guard=room_change_guard(stale, now=at(9))) is None
    assert (game.ply, game.status, game.winner_seat, game.line, game.post_due, game_position(game).ply) == (
        6, GameStatus.PLAYING, None, None, None, 6)
    assert (fresh(game).ply, fresh(game).status) == (6, GameStatus.PLAYING)
    room = Room.objects.get(pk=room.pk)
    played = games.game_move(game, Peg.from_name("a1"), seat=1, cpu_reason="", now=at(10))
    assert games.game_move_write(game, played, guard=room_change_guard(room, now=at(10))) is not None
    stored = fresh(game)
    assert (stored.ply, stored.status, stored.reason, stored.winner_seat) == (7, GameStatus.WON, EndReason.LINE, 1)
    assert stored.line == [{"peg": "a1", "level": level} for level in (1, 2, 3, 4)]
    assert (stored.finished_at, stored.post_due, stored.due_at) == (at(10), at(10), None)
    assert moves_of(game)[-1] == (6, "a1", 1, False, "")


@pytest.mark.django_db
def test_a_takeback_deletes_the_moves_and_restarts_the_turn():
    game = begun(turn_seconds=20)
    for ply, peg in enumerate(["a1", "b1", "c1"]):
        move(game, peg, now=at(ply))
    game.takeback_offer_seat = 2
    games.game_take_back(game, plies=2, now=at(10))
    assert fresh(game).ply == 3  # in memory only
    game.due_at = at(30)
    games.game_take_back_write(game)
    stored = fresh(game)
    assert (stored.ply, stored.record, stored.to_move_seat, stored.turn_started_at) == (1, "a1", 2, at(10))
    assert stored.deadline == at(30) and stored.due_at == at(30) and stored.takeback_offer_seat is None
    assert [m[1] for m in moves_of(game)] == ["a1"]


@pytest.mark.django_db
@pytest.mark.parametrize(("plies", "code"), [(0, "nothing_to_take_back"), (2, "nothing_to_take_back")])
def test_a_takeback_of_more_than_was_played_is_refused(plies, code):
    game = begun()
    move(game, "a1")
    with pytest.raises(Refused) as refused:
        games.game_take_back(game, plies=plies, now=at(1))
    assert refused.value.code == code and game.record == "a1"


@pytest.mark.django_db
def test_halving_a_turn_timer_once_before_the_first_move():
    game = begun(turn_seconds=30)
    games.game_halve_turns(game, colour="red")
    assert fresh(game).red_halved and fresh(game).deadline == at(15)
    with pytest.raises(Refused) as again:
        games.game_halve_turns(game, colour="red")
    move(game, "a1")
    move(game, "b1")
    with pytest.raises(Refused) as late:
        games.game_halve_turns(game, colour="yellow")
    assert (again.value.code, late.value.code) == ("already_halved", "too_late")


@pytest.mark.django_db
def test_a_seat_handed_over_plays_on_as_the_other_player():
    game = begun()
    ann, carol = game.red_player_id, two_players()[0].pk
    assert ann is not None
    games.game_hand_over(game, from_player_id=ann, to_player_id=carol)
    assert fresh(game).red_player_id == carol


def test_a_move_followed_from_another_process_changes_the_instance_only_when_it_is_the_next():
    game = games.game_new(room_id=1, number=1, red_seat=1, red_player_id=None, yellow_player_id=None, red_cpu=False,
                          yellow_cpu=False, cpu_level=3, ranked=False, turn_seconds=None, now=T0)
    assert not games.game_follow(game, peg="a1", seat=1, ply=2)  # a ply skipped
    assert not games.game_follow(game, peg="a1", seat=2, ply=1)  # not that seat's turn
    assert games.game_follow(game, peg="a1", seat=1, ply=1)
    assert (game.ply, game.record) == (1, "a1")


def test_the_kept_position_follows_the_record():
    """The position kept on a game instance is the one its record names, also when the record is changed
    behind it (a move followed from another process, a takeback)."""
    game = games.game_new(room_id=1, number=1, red_seat=1, red_player_id=None, yellow_player_id=None, red_cpu=False,
                          yellow_cpu=False, cpu_level=3, ranked=False, turn_seconds=None, now=T0)
    first = game_position(game)
    assert game_position(game) is first  # kept: not replayed again
    played = games.game_move(game, Peg.from_name("a1"), seat=1, cpu_reason="", now=T0)
    assert game.record == "a1" and game_position(game) is played.position
    game.record = "a1 b2"  # changed behind it
    assert game_position(game).record() == "a1 b2"
    game.record = ""
    assert game_position(game).ply == 0
