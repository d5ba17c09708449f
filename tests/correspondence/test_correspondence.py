"""Correspondence play with an injected clock: days per move, no CPU stand-in, loss on time, abort, no idle
close, what the players are told, the seeks and their wave, and a player's games.

The services are called as the ticker and the correspondence loop call them, at chosen instants; a
correspondence day is ten seconds here (``CORRESPONDENCE_DAY_SECONDS``).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client

from common.errors import Refused
from correspondence.models import CorrespondenceSeek
from correspondence.selectors import my_games
from correspondence.services import CORRESPONDENCE_WAVE, MAX_SEEKS, seek_accept, seek_create, warnings_send
from games.engine.cpu import choose_move
from games.models import Game, GameStatus
from games.postgame import post_games_run
from lobby.models import Room
from lobby.play.automatic import game_cpu_move, game_due_job
from lobby.play.moves import game_drop, game_start
from lobby.rooms.connections import connection_close, connection_open, process_register
from lobby.rooms.services import room_create, room_sit, rooms_close_idle
from lobby.timers import games_claim_due
from notifications.models import Notification
from players.accounts import account_register
from players.models import Player
from players.services import player_create
from ratings.models import PlayerRating

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
DAY = 10.0  # seconds in a correspondence day, here
LEASE = timedelta(seconds=15)
PROCESS = "test-process"
PASSWORD = "four-in-a-row-3d!"


@pytest.fixture(autouse=True)
def _short_days(settings):
    settings.CORRESPONDENCE_DAY_SECONDS = DAY
    settings.PING_TIMEOUT_SECONDS = 10**6  # the clock jumps by days without heartbeats


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def run_due(now: datetime) -> list[tuple[int, int, str]]:
    """Do what the ticker does at ``now``; returns (ply, seat, reason) of each CPU move made."""
    made = []
    for game_id in games_claim_due(now=now, lease=LEASE):
        job = game_due_job(game_id=game_id, now=now)
        if job is None:
            continue
        if game_cpu_move(job=job, peg=choose_move(job.record, job.level, budget_ms=20, seed=1), now=now):
            made.append((job.ply, job.seat, str(job.reason)))
    return made


def account(username: str) -> Player:
    return account_register(player=None, username=username, password=PASSWORD, now=T0)


def correspondence_game(*, days: int = 2, ranked: bool = True, connect: tuple[int, ...] = (1, 2)):
    ann, bob = account("ann"), account("bob")
    room = room_create(host=ann, rules={"days_per_move": days, "ranked": ranked}, now=T0)
    room_sit(code=room.code, player=bob, now=T0)
    process_register(process=PROCESS, now=T0)
    for number, player in ((1, ann), (2, bob)):
        if number in connect:
            connection_open(code=room.code, channel_name=f"chan-{number}", player=player, process=PROCESS, now=T0)
    game = game_start(code=room.code, player=ann, now=T0)
    return room.code, ann, bob, game


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def told(player: Player, kind: str) -> list[Notification]:
    return list(Notification.objects.filter(player=player, kind=kind).order_by("pk"))


# --- the rules ---------------------------------------------------------------------------------------
def test_a_move_is_due_days_per_move_after_the_opponents_and_nobody_is_stood_in_for():
    code, ann, bob, game = correspondence_game(days=2)
    assert game.days_per_move == 2 and game.turn_seconds is None
    assert game.deadline == at(2 * DAY)
    # Both leave: long past the grace period, no CPU stand-in plays for anyone.
    connection_close(channel_name="chan-1", now=at(1))
    connection_close(channel_name="chan-2", now=at(1))
    assert run_due(at(19.9)) == []
    game_drop(code=code, player=ann, peg="a1", ply=0, now=at(15))
    game = fresh(game)
    assert game.ply == 1 and game.deadline == at(15 + 2 * DAY)  # counted from Ann's move
    assert run_due(at(15 + 2 * DAY - 0.1)) == []
    assert fresh(game).status == GameStatus.PLAYING


def test_the_late_player_loses_on_time_once_and_it_is_rated():
    code, ann, bob, game = correspondence_game(days=1)
    game_drop(code=code, player=ann, peg="a1", ply=0, now=at(1))
    game_drop(code=code, player=bob, peg="b1", ply=1, now=at(2))
    assert run_due(at(2 + DAY - 0.01)) == []
    assert run_due(at(2 + DAY)) == []  # no CPU move: the game ends on time
    game = fresh(game)
    assert (game.status, game.reason, game.winner_seat) == (GameStatus.WON, "timeout", 2)
    assert game.deadline is None and game.due_at is None
    assert run_due(at(3 + DAY)) == []  # once
    post_games_run()  # as the post-game loop does it once the end committed: the rating
    assert PlayerRating.objects.get(player=bob).rating > PlayerRating.objects.get(player=ann).rating
    assert fresh(game).status == GameStatus.WON


@pytest.mark.parametrize("moved", [0, 1])
def test_a_game_whose_late_player_never_moved_is_aborted_unrated(moved):
    code, ann, bob, game = correspondence_game(days=1)
    if moved:
        game_drop(code=code, player=ann, peg="a1", ply=0, now=at(1))
    run_due(at(moved + DAY))
    post_games_run()
    game = fresh(game)
    assert (game.status, game.reason, game.winner_seat) == (GameStatus.ABANDONED, "aborted", None)
    assert not PlayerRating.objects.filter(player__in=[ann, bob]).exists()


def test_a_room_playing_a_correspondence_game_never_idles_closed():
    code, ann, bob, game = correspondence_game(days=7, connect=())
    live = room_create(host=player_create(name="Cy", now=T0), rules={}, now=T0)
    closed = rooms_close_idle(now=at(86400 * 2), idle=timedelta(days=1))
    assert closed == [live.code]
    assert Room.objects.get(code=code).closed_at is None and fresh(game).status == GameStatus.PLAYING


@pytest.mark.parametrize("rules", [{"days_per_move": 4}, {"days_per_move": True},
                                   {"days_per_move": 1, "turn_seconds": 30}])
def test_bad_days_per_move_are_refused(rules):
    with pytest.raises(Refused) as refused:
        room_create(host=player_create(name="Ann", now=T0), rules=rules, now=T0)
    assert refused.value.code == "bad_rules"


def test_rooms_take_days_per_move_over_rest_and_both_timers_is_400():
    client = Client()
    made = client.post("/api/rooms", json.dumps({"days_per_move": 3}), content_type="application/json")
    assert made.status_code == 201 and made.json()["rules"]["days_per_move"] == 3
    both = client.post("/api/rooms", json.dumps({"days_per_move": 3, "turn_seconds": 60}),
                       content_type="application/json")
    assert both.status_code == 400 and both.json()["code"] == "bad_rules"


# --- what the players are told ---------------------------------------------------------------------------
def test_your_turn_once_unread_per_game_time_running_out_once_and_game_over_to_both(
        django_capture_on_commit_callbacks):
    code, ann, bob, game = correspondence_game(days=5)
    game_drop(code=code, player=ann, peg="a1", ply=0, now=at(1))
    [turn] = told(bob, "your_turn")
    assert turn.data["game"] == str(game.pk) and turn.data["last_move"] == "a1" and turn.url == f"/r/{code}"
    game_drop(code=code, player=bob, peg="b1", ply=1, now=at(2))
    game_drop(code=code, player=ann, peg="c1", ply=2, now=at(3))
    [turn] = told(bob, "your_turn")  # the newer replaced the unread one
    assert turn.data["ply"] == 3 and turn.data["last_move"] == "c1"
    # A fifth of Bob's 50 s is left at 3 + 40 s: told once, whatever runs the sweep again.
    assert warnings_send(now=at(3 + 39.9)) == 0
    assert warnings_send(now=at(3 + 40)) == 1
    assert warnings_send(now=at(3 + 41)) == 0
    [warning] = told(bob, "time_running_out")
    assert warning.data["ply"] == 3
    run_due(at(3 + 50))
    with django_capture_on_commit_callbacks(execute=True):  # game_over is told once the post-game work commits
        post_games_run()
    [ann_over], [bob_over] = told(ann, "game_over"), told(bob, "game_over")
    assert "won on time" in ann_over.text and "lost on time" in bob_over.text
    assert not told(ann, "time_running_out")


def test_live_games_tell_nobody():
    ann, bob = account("ann"), account("bob")
    room = room_create(host=ann, rules={"turn_seconds": 30}, now=T0)
    room_sit(code=room.code, player=bob, now=T0)
    game_start(code=room.code, player=ann, now=T0)
    game_drop(code=room.code, player=ann, peg="a1", ply=0, now=at(1))
    assert not Notification.objects.exists() and fresh(Game.objects.get(room=room)).warn_at is None


# --- seeks -------------------------------------------------------------------------------------------
def test_seeks_need_an_account_take_only_valid_rules_and_at_most_five():
    guest = player_create(name="Guest", now=T0)
    with pytest.raises(Refused) as refused:
        seek_create(player=guest, days_per_move=1, ranked=True, now=T0)
    assert refused.value.code == "no_account"
    ann = account("ann")
    for bad in (4, "1", None, True):
        with pytest.raises(Refused) as refused:
            seek_create(player=ann, days_per_move=bad, ranked=True, now=T0)
        assert refused.value.code == "bad_rules"
    for _ in range(MAX_SEEKS):
        seek_create(player=ann, days_per_move=1, ranked=True, now=T0)
    with pytest.raises(Refused) as refused:
        seek_create(player=ann, days_per_move=1, ranked=True, now=T0)
    assert refused.value.code == "too_many_seeks"
    # A week later they have expired and no longer count.
    seek_create(player=ann, days_per_move=1, ranked=True, now=T0 + timedelta(days=7, seconds=1))


def test_accepting_a_seek_starts_the_correspondence_game_and_tells_both():
    ann, bob = account("ann"), account("bob")
    seek = seek_create(player=ann, days_per_move=3, ranked=False, now=T0)
    with pytest.raises(Refused) as refused:
        seek_accept(player=ann, seek_id=seek.pk, now=at(1))
    assert refused.value.code == "own_seek"
    made = seek_accept(player=bob, seek_id=seek.pk, now=at(1))
    assert made.game.days_per_move == 3 and not made.game.ranked and made.game.deadline == at(1 + 3 * DAY)
    assert {made.red, made.yellow} == {ann, bob}
    for player in (ann, bob):
        assert [n.data["room"] for n in told(player, "paired")] == [made.room.code]
    assert not CorrespondenceSeek.objects.exists()
    with pytest.raises(Refused) as refused:
        seek_accept(player=bob, seek_id=seek.pk, now=at(2))
    assert refused.value.code == "no_seek"


def test_the_wave_pairs_compatible_seeks_only():
    ann, bob, cy, di = (account(name) for name in ("ann", "bob", "cyd", "dia"))
    seek_create(player=ann, days_per_move=2, ranked=True, now=T0)
    seek_create(player=bob, days_per_move=2, ranked=True, now=T0)
    seek_create(player=cy, days_per_move=2, ranked=False, now=T0)  # casual: another pool
    seek_create(player=di, days_per_move=5, ranked=True, now=T0)  # other days: another pool
    waiting = CORRESPONDENCE_WAVE.read(now=at(1))
    made = CORRESPONDENCE_WAVE.write(CORRESPONDENCE_WAVE.pair(waiting, now=at(1)), now=at(1))
    assert len(made) == 1 and {made[0].red, made[0].yellow} == {ann, bob}
    assert made[0].game.days_per_move == 2 and made[0].game.ranked
    assert set(CorrespondenceSeek.objects.values_list("player__name", flat=True)) == {"cyd", "dia"}


def test_seeks_over_rest():
    ann, bob = Client(), Client()
    for client, name in ((ann, "ann"), (bob, "bob")):
        registered = client.post("/api/accounts/register", json.dumps({"username": name, "password": PASSWORD}),
                                 content_type="application/json")
        assert registered.status_code == 201
    made = ann.post("/api/seeks", json.dumps({"days_per_move": 1, "ranked": True}), content_type="application/json")
    assert made.status_code == 201
    seek = made.json()
    assert seek["days_per_move"] == 1 and seek["ranked"] and seek["player"]["name"] == "ann"
    assert [s["id"] for s in bob.get("/api/seeks").json()["results"]] == [seek["id"]]
    # A new account's rating is provisional: shown with its "?", as everywhere else.
    assert (seek["rating"], seek["display"]) == (1500, "1500?") == \
        tuple(bob.get("/api/seeks").json()["results"][0][key] for key in ("rating", "display"))
    assert bob.delete(f"/api/seeks/{seek['id']}").json()["code"] == "not_yours"
    assert bob.get("/api/seeks?page=%C2%B2").status_code == 400
    room = bob.post(f"/api/seeks/{seek['id']}/accept")
    assert room.status_code == 201 and room.json()["game"]["days_per_move"] == 1
    assert bob.post(f"/api/seeks/{seek['id']}/accept").status_code == 404
    games = {name: client.get("/api/my/games").json() for name, client in (("ann", ann), ("bob", bob))}
    red = "ann" if games["ann"]["your_turn"] else "bob"
    [mine] = games[red]["your_turn"]
    assert mine["colour"] == "red" and mine["days_per_move"] == 1 and mine["ply"] == 0 and mine["last_move"] is None
    assert games["bob" if red == "ann" else "ann"]["waiting"][0]["opponent"]["name"] == red


# --- your games ----------------------------------------------------------------------------------------
def test_my_games_lists_your_turn_soonest_deadline_first_and_waiting():
    code, ann, bob, game = correspondence_game(days=7)
    cy = account("cyd")
    room = room_create(host=cy, rules={"days_per_move": 1}, now=T0)
    room_sit(code=room.code, player=ann, now=T0)
    other = game_start(code=room.code, player=cy, now=T0)
    game_drop(code=room.code, player=cy, peg="d4", ply=0, now=at(1))
    listed = my_games(ann, now=at(2))
    assert [item["game"] for item in listed["your_turn"]] == [str(other.pk), str(game.pk)]  # 1 day before 7
    assert listed["your_turn"][0]["last_move"] == "d4" and listed["your_turn"][0]["opponent"]["name"] == "cyd"
    game_drop(code=code, player=ann, peg="a1", ply=0, now=at(3))
    listed = my_games(ann, now=at(4))
    assert [item["game"] for item in listed["waiting"]] == [str(game.pk)]
    assert listed["waiting"][0]["colour"] == "red" and listed["waiting"][0]["ply"] == 1


# --- the bot API -------------------------------------------------------------------------------------
def test_a_bot_is_challenged_to_correspondence_and_the_game_has_days_per_move():
    from botclient.policy import Policy
    from bots.accounts import bot_upgrade
    from bots.challenges import challenge_accept, challenge_create

    ann, bot = account("ann"), account("robot")
    bot_upgrade(player=bot, now=T0)
    bot.refresh_from_db()
    with pytest.raises(Refused) as refused:  # a bot needs a timer or days per move
        challenge_create(challenger=ann, username="robot", turn_seconds=None, now=T0)
    assert refused.value.code == "timer_required"
    with pytest.raises(Refused) as refused:
        challenge_create(challenger=ann, username="robot", turn_seconds=30, days_per_move=1, now=T0)
    assert refused.value.code == "bad_rules"
    challenge = challenge_create(challenger=ann, username="robot", turn_seconds=None, days_per_move=3, now=T0)
    assert Policy().decline_reason({"challenger": {"username": "ann"}, "turn_seconds": None, "days_per_move": 3,
                                    "ranked": False}) is None
    assert Policy(correspondence=False).decline_reason(
        {"challenger": {"username": "ann"}, "turn_seconds": None, "days_per_move": 3, "ranked": False}) == "timer"
    accepted = challenge_accept(challenge_id=challenge.pk, player=bot, now=at(1))
    game = Game.objects.get(pk=accepted.game_id)
    assert game.days_per_move == 3 and game.turn_seconds is None and game.deadline == at(1 + 3 * DAY)


def test_the_pages_have_the_games_list_the_seek_card_and_the_rules_field():
    client = Client()
    assert 'id="my-games"' in client.get("/my/games").content.decode()
    home = client.get("/").content.decode()
    assert 'id="correspondence"' in home and 'name="days_per_move"' in home and 'id="my-turns"' in home


def test_a_pair_refused_in_the_wave_is_dropped_alone(monkeypatch):
    from correspondence import services

    ann, bob, cy, di = (account(name) for name in ("ann", "bob", "cyd", "dia"))
    for player in (ann, bob, cy, di):
        seek_create(player=player, days_per_move=2, ranked=False, now=T0)
    real = services._pair

    def refusing(first, second, **kwargs):
        if "ann" in (first.name, second.name):
            raise Refused("banned", "refused inside the wave")
        return real(first, second, **kwargs)

    monkeypatch.setattr(services, "_pair", refusing)
    waiting = CORRESPONDENCE_WAVE.read(now=at(1))
    pairs = CORRESPONDENCE_WAVE.pair(waiting, now=at(1))
    made = CORRESPONDENCE_WAVE.write(pairs, now=at(1))
    assert len(pairs) == 2 and len(made) == 1 and "ann" not in {made[0].red.name, made[0].yellow.name}
