"""What a spectator's join costs: a crowd joining a room at one version shares one snapshot per process, and
the count it changes is refreshed by itself."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from lobby import events
from lobby.models import Room
from lobby.protocol.messages import RoomSpectators
from lobby.rooms.connections import connection_open, process_register, room_refresh_spectators
from lobby.rooms.services import room_create, room_sit, room_stand
from players.models import Player
from players.services import player_create

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
pytestmark = pytest.mark.django_db


def a_room_with_two_players() -> str:
    ann, bob = player_create(name="Ann", now=T0), player_create(name="Bob", now=T0)
    code = room_create(host=ann, rules={}, now=T0).code
    room_sit(code=code, player=bob, now=T0)
    process_register(process="p1", now=T0)
    return code


def join(code: str, name: str, at: datetime, player=None) -> tuple[dict, int]:
    with CaptureQueriesContext(connection) as captured:
        opened = connection_open(code=code, channel_name=name, player=player, process="p1", now=at)
    assert opened.spectator
    return opened.snapshot, len(captured.captured_queries)


def test_spectators_joining_at_one_version_share_one_read_of_the_snapshot():
    code = a_room_with_two_players()
    first, first_cost = join(code, "tab-1", T0)
    second, second_cost = join(code, "tab-2", T0 + timedelta(milliseconds=500))
    assert second == first
    # BEGIN, the room, the connection, COMMIT: the seats, the game and the ratings are not read again.
    assert second_cost == 4, second_cost
    assert first_cost > second_cost
    # Past a second the snapshot is read anew (what it shows may depend on the time).
    _, later_cost = join(code, "tab-3", T0 + timedelta(seconds=1))
    assert later_cost == first_cost


def test_a_change_of_the_room_is_read_anew_at_once():
    code = a_room_with_two_players()
    before, first_cost = join(code, "tab-1", T0)
    bob = Player.objects.get(pk=before["seats"][1]["player"]["id"])
    room_stand(code=code, player=bob, now=T0)  # a new version
    after, cost = join(code, "tab-2", T0 + timedelta(milliseconds=100))
    assert after["version"] > before["version"] and after["seats"][1]["player"] is None
    assert cost == first_cost


def test_a_refresh_of_the_spectator_count_reads_the_count_alone_and_sends_it_alone(monkeypatch):
    code = a_room_with_two_players()
    join(code, "tab-1", T0)
    join(code, "tab-2", T0)
    sent = []
    monkeypatch.setattr(events, "on_commit", sent.append)  # what the refresh has sent once committed
    version = Room.objects.get(code=code).version
    with CaptureQueriesContext(connection) as captured:
        assert room_refresh_spectators(code=code, now=T0 + timedelta(seconds=1))
    # BEGIN, the room locked, the count, the room's version and count written, COMMIT: no seat, game or rating
    assert len(captured.captured_queries) == 5, [q["sql"] for q in captured.captured_queries]
    assert [event.message for event in sent] == [RoomSpectators(version + 1, 2)]
    assert Room.objects.get(code=code).version == version + 1
    with CaptureQueriesContext(connection) as captured:
        assert not room_refresh_spectators(code=code, now=T0 + timedelta(seconds=2))  # unchanged: nothing sent
    assert len(sent) == 1 and Room.objects.get(code=code).version == version + 1
