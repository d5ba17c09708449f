"""Players moved from the lobby app to their own: a populated database keeps every row and every link."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("lobby", "0001_initial"), ("games", "0001_initial"), ("ratings", "0001_initial"), ("players", None)]
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state([t for t in targets if t[1] is not None]).apps


@pytest.mark.django_db(transaction=True)
def test_a_populated_database_migrates_with_every_player_and_link_kept():
    old = _migrate(BEFORE)
    OldPlayer = old.get_model("lobby", "Player")
    ann = OldPlayer.objects.create(name="Ann", created_at=NOW)
    bob = OldPlayer.objects.create(name="Bob", created_at=NOW)
    room = old.get_model("lobby", "Room").objects.create(code="K7QZ2M", host=ann, created_at=NOW,
                                                           last_activity_at=NOW)
    old.get_model("lobby", "Seat").objects.create(room=room, number=1, player=ann)
    old.get_model("lobby", "Seat").objects.create(room=room, number=2, player=bob)
    game = old.get_model("games", "Game").objects.create(
        room=room, number=1, red_seat=1, red_player=ann, yellow_player=bob, started_at=NOW, turn_started_at=NOW,
    )
    old.get_model("ratings", "PlayerRating").objects.create(player=ann, rating=1612.5)

    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    new = _migrate(latest)

    Player = new.get_model("players", "Player")
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Ann", "Bob"]
    moved_room = new.get_model("lobby", "Room").objects.get(code="K7QZ2M")
    assert moved_room.host_id == ann.pk
    seats = new.get_model("lobby", "Seat").objects.filter(room=moved_room).order_by("number")
    assert [seat.player.name for seat in seats] == ["Ann", "Bob"]
    moved_game = new.get_model("games", "Game").objects.get(pk=game.pk)
    assert (moved_game.red_player.name, moved_game.yellow_player.name) == ("Ann", "Bob")
    assert new.get_model("ratings", "PlayerRating").objects.get(player_id=ann.pk).rating == 1612.5
