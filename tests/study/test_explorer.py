"""The opening explorer: its counts equal a recount from the games table, symmetric twins merged, and a game
is learned once however many processes hear it end."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from django.db import connection
from django.test import Client

from games.engine import Position, Symmetry
from games.models import Game, GameStatus
from games.postgame import post_games_run
from lobby.rooms.services import room_create
from players.services import player_create
from study.explorer import explorer_learn, explorer_learn_missed
from study.models import EXPLORER_PLIES, ExplorerLearned, ExplorerMove
from tests.games.analysiskit import T0, at
from tests.racekit import race

pytestmark = pytest.mark.django_db


def key(record: list[str]) -> int:
    """The position's class, recounted the plain way: the least of its 8 images' boards."""
    position = Position.from_record(" ".join(record))
    return min((image.red << 64) | image.yellow for image in (position.transformed(s) for s in Symmetry))


def finished_games(count: int, *, seed: int = 7) -> list[Game]:
    """``count`` finished games between Ann and Bob written as rows, every third one a mirror image of an
    earlier one, results drawn at random."""
    ann, bob = player_create(name="Ann", now=T0), player_create(name="Bob", now=T0)
    room = room_create(host=ann, guest=bob, rules={"ranked": False}, now=T0)
    rng = random.Random(seed)
    records: list[str] = []
    for n in range(count):
        if n % 3 == 2:
            base = Position.from_record(records[rng.randrange(len(records))])
            records.append(base.transformed(rng.choice(list(Symmetry))).record())
            continue
        position = Position.initial()
        for _ in range(rng.randrange(2, 22)):
            legal = position.legal_pegs()[:4]  # a narrow tree, so positions repeat
            if position.outcome is not None or not legal:
                break
            position = position.play(rng.choice(legal))
        records.append(position.record())
    games = []
    for n, record in enumerate(records):
        ended = Position.from_record(record).outcome
        winner = rng.choice([1, 2]) if ended is None else (1 if ended.winner is not None and n >= 0 else None)
        if ended is not None and ended.winner is not None:
            winner = 1 if str(ended.winner) == "red" else 2
        status = GameStatus.DRAWN if winner is None else GameStatus.WON
        games.append(Game(room=room, number=n + 1, status=status, red_seat=1, red_player=ann, yellow_player=bob,
                          ranked=n % 2 == 0, ply=len(record.split()), record=record, winner_seat=winner,
                          started_at=at(n), turn_started_at=at(n), finished_at=at(n + 1)))
    return Game.objects.bulk_create(games)


def test_counts_equal_a_recount_from_the_games_table():
    games = finished_games(210)
    assert explorer_learn_missed(now=at(1000)) == 210
    assert explorer_learn_missed(now=at(1001)) == 0  # learned once
    assert not explorer_learn(Game.objects.select_related("red_player", "yellow_player").first(), now=at(1002))
    reached: Counter[int] = Counter()
    played: Counter[tuple[int, int]] = Counter()
    red_wins: Counter[tuple[int, int]] = Counter()
    samples: dict[int, list[str]] = {}
    for game in Game.objects.all():
        moves = game.record.split()
        for ply in range(min(len(moves), EXPLORER_PLIES) + 1):
            here = key(moves[:ply])
            reached[here] += 1
            samples.setdefault(here, moves[:ply])
            if ply < min(len(moves), EXPLORER_PLIES):
                edge = (here, key(moves[:ply + 1]))
                played[edge] += 1
                red_wins[edge] += game.winner_seat == 1
    client = Client()
    assert len(games) == 210 and len(samples) > 100
    # Every position reached by several games (the twins among them), and a few reached once.
    shared = [here for here in samples if reached[here] > 1]
    checked = shared + [here for here in samples if reached[here] == 1][:20]
    assert len(shared) > 20
    for here in checked:
        record = samples[here]
        answer = client.get("/api/explorer", {"record": ",".join(record)}).json()
        assert answer["games"] == reached[here]
        seen = {(here, key([*record, move["peg"]])): move for move in answer["moves"]}
        assert {edge: move["games"] for edge, move in seen.items()} == {e: n for e, n in played.items() if e[0] == here}
        assert all(move["red_wins"] == red_wins[edge] for edge, move in seen.items())
    # A mirror image of the asked position answers in its own orientation.
    first = client.get("/api/explorer", {"record": "a1"}).json()
    mirrored = client.get("/api/explorer", {"record": "d1"}).json()
    flip = Symmetry.FLIP_COLUMNS
    assert first["games"] == mirrored["games"]
    assert sorted((str(flip.apply_peg(Position.from_record(m["peg"]).moves[0])), m["games"]) for m in first["moves"]) \
        == sorted((m["peg"], m["games"]) for m in mirrored["moves"])


def test_ranked_filter_and_bad_queries():
    finished_games(30)
    explorer_learn_missed(now=at(1000))
    client = Client()
    both, ranked, casual = (client.get("/api/explorer", query).json()["games"]
                            for query in ({}, {"ranked": "true"}, {"ranked": "false"}))
    assert both == 30 and ranked + casual == both and ranked == 15
    assert client.get("/api/explorer", {"record": "a1,a1,a1,a1,a1"}).json()["code"] == "bad_record"
    assert client.get("/api/explorer", {"ranked": "maybe"}).status_code == 400


@pytest.mark.postgres  # SQLite has one writer at a time: no race to lose (the sequential case is above)
@pytest.mark.django_db(transaction=True)
def test_a_game_ending_on_two_processes_is_learned_once():
    """Two processes doing the post-game work of a game that just ended (its marker set), and the command
    that learns missed games, at once: one learns it."""
    [game] = finished_games(1)
    Game.objects.filter(pk=game.pk).update(post_due=at(1))
    game = Game.objects.select_related("red_player", "yellow_player").get(pk=game.pk)
    race(lambda: post_games_run(now=at(5)), lambda: post_games_run(now=at(5)),
         lambda: explorer_learn(game, now=at(5)))
    assert ExplorerLearned.objects.count() == 1
    assert sum(row.games for row in ExplorerMove.objects.all() if row.key == f"{key([]):032x}") == 1
    assert Game.objects.get(pk=game.pk).post_due is None
    connection.close()
