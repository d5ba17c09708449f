"""Arenas on the database: creating (quota), joining, waves that pair each player once, scoring a game's end
through the games layer's hook, berserk, pausing after two away losses, the clock's transitions."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from bots.accounts import bot_upgrade
from common.errors import RateLimited, Refused
from games.models import Game
from games.selectors import game_record
from lobby.models import Room
from lobby.play.moves import game_again, game_start
from lobby.rooms.selectors import room_snapshot
from lobby.rooms.services import room_create, room_sit
from players.services import player_create
from players.social import block_add
from tests.arenakit import (
    RED_WINS_AT_11,
    RED_WINS_AT_15,
    TEN_QUIET,
    YELLOW_WINS_AT_12,
    account,
    arena,
    guest,
    play,
    resign,
    run_wave,
    sides,
)
from tournaments.models import Arena, ArenaGame, ArenaPlayer, ArenaStatus
from tournaments.pairing import pair_waiting
from tournaments.scoring import ArenaGameResult, tallies_from_games
from tournaments.selectors import arena_games, arena_view
from tournaments.services import (
    ArenaSpec,
    arena_berserk,
    arena_create,
    arena_join,
    arena_pause,
    arena_withdraw,
    arenas_sweep,
    tally_of,
)
from tournaments.waves import arena_pairs_write, wave_waiting, wave_write

pytestmark = pytest.mark.django_db(transaction=True)

SPEC = ArenaSpec(name="Friday", starts_at=None, minutes=60, turn_seconds=30, ranked=True, berserk=False)


def test_an_account_creates_at_most_three_arenas_a_day():
    ann = account("ann")
    now = timezone.now()
    for hours in range(3):
        arena_create(spec=SPEC, player=ann, now=now + timedelta(hours=hours))
    with pytest.raises(RateLimited) as refused:
        arena_create(spec=SPEC, player=ann, now=now + timedelta(hours=5))
    assert 0 < refused.value.retry_after <= 19 * 3600 + 1  # the first one leaves the day after it was created
    arena_create(spec=SPEC, player=ann, now=now + timedelta(days=1, seconds=1))
    with pytest.raises(Refused) as guest:
        arena_create(spec=SPEC, player=player_create(name="Guest", now=now), now=now)
    assert guest.value.code == "no_account"


def test_an_arena_started_now_runs_one_created_for_later_starts_with_the_clock():
    now = timezone.now()
    later = arena(starts_at=now + timedelta(minutes=5), minutes=10)
    assert later.status == ArenaStatus.CREATED
    assert arenas_sweep(now=now) == []
    assert arenas_sweep(now=now + timedelta(minutes=5)) == [later.pk]
    assert Arena.objects.get(pk=later.pk).status == ArenaStatus.STARTED
    arenas_sweep(now=now + timedelta(minutes=15))
    assert Arena.objects.get(pk=later.pk).status == ArenaStatus.FINISHED


def test_join_pause_withdraw_and_the_refusals():
    the_arena = arena()
    ann, bob = guest("ann"), guest("bob")
    with pytest.raises(Refused, match="not joined"):
        arena_pause(arena_id=the_arena.pk, player=ann, now=timezone.now())
    arena_join(arena_id=the_arena.pk, player=ann, now=timezone.now())
    arena_join(arena_id=the_arena.pk, player=ann, now=timezone.now())  # again: still one entry
    assert ArenaPlayer.objects.filter(arena=the_arena).count() == 1
    assert arena_pause(arena_id=the_arena.pk, player=ann, now=timezone.now()).paused
    arena_join(arena_id=the_arena.pk, player=bob, now=timezone.now())
    assert run_wave(the_arena.pk) == []  # Ann is paused: Bob waits alone
    arena_join(arena_id=the_arena.pk, player=ann, now=timezone.now())  # back
    arena_withdraw(arena_id=the_arena.pk, player=bob, now=timezone.now())
    assert not ArenaPlayer.objects.filter(player=bob).exists()  # no game yet: the entry goes
    with pytest.raises(Refused) as missing:
        arena_join(arena_id=99999, player=ann, now=timezone.now())
    assert missing.value.code == "not_found"
    Arena.objects.filter(pk=the_arena.pk).update(status=ArenaStatus.FINISHED)
    with pytest.raises(Refused) as over:
        arena_join(arena_id=the_arena.pk, player=bob, now=timezone.now())
    assert over.value.code == "finished"


def test_a_wave_pairs_each_free_player_once_in_ordinary_rooms_and_games():
    the_arena = arena(turn_seconds=30)
    players = [guest(f"p{i}") for i in range(5)]
    for player in players:
        arena_join(arena_id=the_arena.pk, player=player, now=timezone.now())
    codes = run_wave(the_arena.pk)
    assert len(codes) == 2
    assert run_wave(the_arena.pk) == []  # the next wave is not due yet
    busy = ArenaPlayer.objects.filter(arena=the_arena, game__isnull=False)
    assert busy.count() == 4 and len({e.game_id for e in busy}) == 2
    for code in codes:
        room = Room.objects.get(code=code)
        game = Game.objects.get(room=room)
        assert (room.turn_seconds, room.ranked, game.tournament_id, game.ranked) == (30, True, the_arena.pk, True)
        snapshot = room_snapshot(code)
        assert snapshot is not None and snapshot["game"]["tournament"] == the_arena.pk
        assert game_record(str(game.pk))["tournament"] == the_arena.pk
    # The one left waits for the next wave, when a game has ended.
    Arena.objects.filter(pk=the_arena.pk).update(wave_at=timezone.now() - timedelta(seconds=10))
    assert run_wave(the_arena.pk) == []


def test_a_finished_game_is_scored_once_by_the_hook_and_the_players_are_paired_again():
    the_arena = arena()
    ann, bob, cat, dan = (guest(name) for name in ("ann", "bob", "cat", "dan"))
    for player in (ann, bob, cat, dan):
        arena_join(arena_id=the_arena.pk, player=player, now=timezone.now())
    first, second = run_wave(the_arena.pk)
    play(first, RED_WINS_AT_11)
    row, red, yellow = ArenaGame.objects.get(game__room__code=first), None, None
    assert row.scored_at is not None and (row.points_red, row.points_yellow) == (2, 0)
    winner = ArenaPlayer.objects.get(arena=the_arena, player=row.red)
    assert (winner.score, winner.games, winner.wins, winner.game_id) == (2, 1, 1, None)
    with pytest.raises(Refused) as again:  # an arena room has no "again": the arena pairs the next game
        game_again(code=first, player=row.red, now=timezone.now())
    assert again.value.code == "no_again"
    _, red, yellow = sides(second)
    play(second, TEN_QUIET[:9])
    resign(second, yellow)  # at ply 9: under ten plies, nobody scores
    short = ArenaGame.objects.get(game__room__code=second)
    assert (short.points_red, short.points_yellow) == (0, 0)
    # Everyone is free again: the next wave pairs them, not with the previous opponent.
    Arena.objects.filter(pk=the_arena.pk).update(wave_at=timezone.now() - timedelta(seconds=10))
    for code in run_wave(the_arena.pk):
        game, one, other = sides(code)
        previous = ArenaPlayer.objects.get(arena=the_arena, player=one).previous_opponent_id
        assert previous != other.pk
    # The games list, recomputed, gives the standings the store kept.
    listed = arena_games(the_arena.pk)
    assert [g["points"] for g in listed] == [{"red": 2, "yellow": 0}, {"red": 0, "yellow": 0}]
    recomputed, _ = tallies_from_games(ArenaGameResult(red=g["red"], yellow=g["yellow"], winner=g["winner"],
                                                       plies=g["plies"], red_rating=1500, yellow_rating=1500)
                                       for g in listed)
    for entry in ArenaPlayer.objects.filter(arena=the_arena):
        assert tally_of(entry).score == recomputed[str(entry.player_id)].score


def test_berserk_halves_my_own_timer_before_my_first_move_and_adds_a_point_to_a_long_win():
    the_arena = arena(turn_seconds=60, berserk=True)
    ann, bob = guest("ann"), guest("bob")
    for player in (ann, bob):
        arena_join(arena_id=the_arena.pk, player=player, now=timezone.now())
    (code,) = run_wave(the_arena.pk)
    row, red, yellow = sides(code)
    game = Game.objects.get(pk=row.game_id)
    arena_berserk(arena_id=the_arena.pk, player=red, game_id=str(game.pk), now=timezone.now())
    halved = Game.objects.get(pk=game.pk)
    assert halved.red_halved and not halved.yellow_halved
    assert halved.deadline == halved.turn_started_at + timedelta(seconds=30)
    assert room_snapshot(code)["game"]["berserk"] == {"red": True, "yellow": False}  # both see the flame
    with pytest.raises(Refused) as twice:
        arena_berserk(arena_id=the_arena.pk, player=red, game_id=str(game.pk), now=timezone.now())
    assert twice.value.code == "already_halved"
    play(code, RED_WINS_AT_15[:1])
    after = Game.objects.get(pk=game.pk)
    assert after.deadline == after.turn_started_at + timedelta(seconds=60)  # Yellow's turn: the whole minute
    play(code, RED_WINS_AT_15[1:2])
    assert Game.objects.get(pk=game.pk).deadline == Game.objects.get(pk=game.pk).turn_started_at + timedelta(
        seconds=30)
    with pytest.raises(Refused) as late:
        arena_berserk(arena_id=the_arena.pk, player=yellow, game_id=str(game.pk), now=timezone.now())
    assert late.value.code == "too_late"
    play(code, RED_WINS_AT_15[2:])
    scored = ArenaGame.objects.get(pk=row.pk)
    assert (scored.red_berserk, scored.points_red, scored.points_yellow) == (True, 3, 0)


def test_berserk_refused_where_the_arena_does_not_allow_it_or_the_game_is_not_mine():
    the_arena = arena(berserk=False)
    ann, bob, eve = guest("ann"), guest("bob"), guest("eve")
    for player in (ann, bob):
        arena_join(arena_id=the_arena.pk, player=player, now=timezone.now())
    (code,) = run_wave(the_arena.pk)
    row, red, _ = sides(code)
    with pytest.raises(Refused) as not_allowed:
        arena_berserk(arena_id=the_arena.pk, player=red, game_id=str(row.game_id), now=timezone.now())
    assert not_allowed.value.code == "no_berserk"
    Arena.objects.filter(pk=the_arena.pk).update(berserk=True)
    with pytest.raises(Refused) as other:
        arena_berserk(arena_id=the_arena.pk, player=eve, game_id=str(row.game_id), now=timezone.now())
    assert other.value.code == "not_your_game"


def test_two_games_in_a_row_lost_on_time_while_away_pause_the_player():
    the_arena = arena()
    ann, bob = guest("ann"), guest("bob")
    for player in (ann, bob):
        arena_join(arena_id=the_arena.pk, player=player, now=timezone.now())
    away = None
    for round_ in range(2):
        Arena.objects.filter(pk=the_arena.pk).update(wave_at=timezone.now() - timedelta(seconds=10))
        (code,) = run_wave(the_arena.pk)
        _, red, yellow = sides(code)
        away = away or yellow
        if away == yellow:  # the away player's last move is the CPU's, for a timeout
            play(code, RED_WINS_AT_11, timeout_plies=(9,))
        else:
            play(code, YELLOW_WINS_AT_12, timeout_plies=(10,))
        loser = ArenaPlayer.objects.get(arena=the_arena, player=away)
        assert (loser.paused, loser.losses) == (round_ == 1, round_ + 1), f"after {round_ + 1} away losses"
    view = arena_view(the_arena.pk)
    assert view is not None and view.rows[str(loser.player_id)]["paused"]


def test_a_wave_does_not_pair_two_kept_apart_by_a_block_while_another_pairing_is_possible():
    the_arena = arena(turn_seconds=30)
    ann, mal, cyd = account("ann"), account("mal"), account("cyd")
    block_add(blocker=ann, blocked_id=mal.pk, now=timezone.now())
    for player in (ann, mal, cyd):  # joined in this order: the standings put Ann and Mal side by side
        arena_join(arena_id=the_arena.pk, player=player, now=timezone.now())
    [code] = run_wave(the_arena.pk)
    _, red, yellow = sides(code)
    assert {red.pk, yellow.pk} == {ann.pk, cyd.pk}


def test_bots_neither_join_nor_create_arenas():
    robo = account("robo")
    bot_upgrade(player=robo, now=timezone.now())
    the_arena = arena()
    for attempt in (lambda: arena_join(arena_id=the_arena.pk, player=robo, now=timezone.now()),
                    lambda: arena_create(spec=SPEC, player=robo, now=timezone.now())):
        with pytest.raises(Refused) as refused:
            attempt()
        assert refused.value.code == "bot_account"
    assert not ArenaPlayer.objects.exists() and Arena.objects.count() == 1


def test_an_entry_that_became_a_bot_is_not_paired():
    the_arena = arena()
    ann, robo = account("ann"), account("robo")
    for player in (ann, robo):
        arena_join(arena_id=the_arena.pk, player=player, now=timezone.now())
    bot_upgrade(player=robo, now=timezone.now())  # joined before its first game, then upgraded
    assert run_wave(the_arena.pk) == []


def test_joining_while_playing_elsewhere_waits_for_that_game_to_end():
    the_arena = arena()
    now = timezone.now()
    ann, bob, cat = guest("ann"), guest("bob"), guest("cat")
    elsewhere = room_create(host=ann, rules={}, now=now)
    room_sit(code=elsewhere.code, player=bob, now=now)
    game_start(code=elsewhere.code, player=ann, now=now)  # ann plays bob in a room of their own
    for player in (ann, cat):
        arena_join(arena_id=the_arena.pk, player=player, now=now)
    assert run_wave(the_arena.pk, now=now) == []  # not into a second game at once
    assert Arena.objects.get(pk=the_arena.pk).wave_at == now  # (the wave ran: it found nobody to pair)
    resign(elsewhere.code, bob)
    later = now + timedelta(seconds=10)
    [code] = run_wave(the_arena.pk, now=later)
    _, red, yellow = sides(code)
    assert {red.pk, yellow.pk} == {ann.pk, cat.pk}


def test_a_game_left_for_longer_than_the_grace_period_does_not_hold_a_player_back(settings):
    then = timezone.now() - timedelta(hours=1)
    the_arena = arena()
    ann, bob, cat = guest("ann"), guest("bob"), guest("cat")
    left = room_create(host=ann, rules={}, now=then)
    room_sit(code=left.code, player=bob, now=then)
    game_start(code=left.code, player=ann, now=then)  # nobody has been there for an hour
    for player in (ann, cat):
        arena_join(arena_id=the_arena.pk, player=player, now=timezone.now())
    assert len(run_wave(the_arena.pk)) == 1


def test_a_batch_of_pairs_is_written_in_the_same_few_statements_and_drops_only_a_pair_gone_busy():
    the_arena = arena()
    now = timezone.now()
    players = [guest(f"p{i}") for i in range(10)]
    for player in players:
        arena_join(arena_id=the_arena.pk, player=player, now=now)
    pairs = pair_waiting(wave_waiting(arena_id=the_arena.pk, now=now))
    assert len(pairs) == 5
    gone = next(p for p in players if str(p.pk) == pairs[1].red.player_id)  # sits down elsewhere meanwhile
    game_start(code=room_create(host=gone, rules={}, now=now).code, player=gone, now=now)  # against the CPU
    with CaptureQueriesContext(connection) as one:
        assert len(arena_pairs_write(arena_id=the_arena.pk, pairs=pairs[:1], now=now)) == 1
    with CaptureQueriesContext(connection) as four:
        written = arena_pairs_write(arena_id=the_arena.pk, pairs=pairs[1:], now=now)
    assert len(written) == 3  # the pair of the player who sat down elsewhere is dropped, the others written
    assert len(four.captured_queries) == len(one.captured_queries)
    entries = ArenaPlayer.objects.filter(arena=the_arena)
    assert entries.filter(game__isnull=False).count() == 8
    assert ArenaGame.objects.filter(arena=the_arena).count() == len({e.game_id for e in entries if e.game_id}) == 4


def test_a_refused_pair_is_dropped_alone_and_the_wave_writes_the_others(monkeypatch):
    from tournaments import waves

    the_arena = arena()
    now = timezone.now()
    for i in range(6):
        arena_join(arena_id=the_arena.pk, player=guest(f"p{i}"), now=now)
    pairs = pair_waiting(wave_waiting(arena_id=the_arena.pk, now=now))
    refused_red = pairs[1].red.player_id
    written = waves.rooms_for_two

    def refusing(two, **kwargs):  # the rooms refuse one pair (as they refuse a banned Red): the batch rolls back
        if any(str(red.pk) == refused_red for red, _ in two):
            raise Refused("banned", "banned")
        return written(two, **kwargs)

    monkeypatch.setattr(waves, "rooms_for_two", refusing)
    assert len(wave_write(arena_id=the_arena.pk, pairs=pairs, now=now)) == 2
    playing = set(ArenaPlayer.objects.filter(arena=the_arena, game__isnull=False).values_list("player_id", flat=True))
    kept = (pairs[0], pairs[2])
    assert {str(pk) for pk in playing} == {p.player_id for pair in kept for p in (pair.red, pair.yellow)}
