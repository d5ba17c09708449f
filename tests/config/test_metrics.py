"""GET /metrics: the Prometheus text format, each metric recorded where it happens, and access rules."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest
from channels.layers import channel_layers
from django.db import transaction
from django.test import override_settings
from prometheus_client.parser import text_string_to_metric_families

from common import metrics
from common.errors import Refused
from games import cpu_pool
from games.engine import Peg
from games.services import game_move, game_move_write
from live import events as live_events
from lobby import events
from lobby.play.moves import game_drop, game_start
from lobby.protocol import messages
from lobby.rooms.selectors import room_snapshot
from lobby.rooms.services import room_close, room_create, room_sit
from players.services import player_create
from tests.lobby.test_timers import run_due, setup_game
from tests.roomkit import Client, make_player_async, make_room_async

T0 = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

EXPECTED_FAMILIES = {
    "fourinarow_moves": "counter",
    "fourinarow_move_service_seconds": "histogram",
    "fourinarow_websocket_connections_open": "gauge",
    "fourinarow_rooms_open": "gauge",
    "fourinarow_games_playing": "gauge",
    "fourinarow_scheduler_lateness_seconds": "histogram",
    "fourinarow_cpu_think_seconds": "histogram",
    "fourinarow_frames_refused": "counter",
    "fourinarow_channel_layer_send_failures": "counter",
}


METRICS = {
    "fourinarow_moves_total": metrics.MOVES,
    "fourinarow_move_service_seconds": metrics.MOVE_SERVICE_SECONDS,
    "fourinarow_websocket_connections_open": metrics.WEBSOCKETS_OPEN,
    "fourinarow_scheduler_lateness_seconds": metrics.TICKER_LATENESS_SECONDS,
    "fourinarow_cpu_think_seconds": metrics.CPU_THINK_SECONDS,
    "fourinarow_frames_refused_total": metrics.FRAMES_REFUSED,
    "fourinarow_channel_layer_send_failures_total": metrics.CHANNEL_LAYER_SEND_FAILURES,
}


def value(name: str, **labels: str) -> float:
    """A sample of this process's metrics (0 before it is first recorded), read through the library's own
    collection, as a scrape reads it (not the registry: its database counts cannot run on an event loop)."""
    metric = next(m for prefix, m in METRICS.items() if name.startswith(prefix))
    for family in metric.collect():
        for sample in family.samples:
            if sample.name == name and sample.labels == labels:
                return float(sample.value)
    return 0.0


def scrape(client, **headers) -> dict[str, object]:
    response = client.get("/metrics", **headers)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=0.0.4")
    return {family.name: family for family in text_string_to_metric_families(response.content.decode())}


def gauge_value(families, name: str) -> float:
    (sample,) = families[name].samples
    return sample.value


@pytest.fixture(autouse=True)
def _metrics_open(settings):
    settings.METRICS_ALLOWED_ADDRESSES = []
    settings.METRICS_TOKEN = ""


# --- the endpoint ------------------------------------------------------------------------------------
@pytest.mark.django_db
def test_metrics_are_served_in_the_prometheus_text_format(client):
    families = scrape(client)
    for name, kind in EXPECTED_FAMILIES.items():
        assert families[name].type == kind, name
    # Kinds of move and CPU levels are there from the start, at zero or above.
    kinds = {s.labels["kind"] for s in families["fourinarow_moves"].samples if s.name == "fourinarow_moves_total"}
    assert kinds == {"person", "cpu", "timeout", "stand_in"}


@pytest.mark.django_db
def test_rooms_open_and_games_playing_are_counted_in_the_database_when_scraped(client):
    ann = player_create(name="Ann", now=T0)
    bob = player_create(name="Bob", now=T0)
    playing = room_create(host=ann, rules={}, now=T0)
    room_sit(code=playing.code, player=bob, now=T0)
    game_start(code=playing.code, player=ann, now=T0)
    room_create(host=bob, rules={}, now=T0)
    closed = room_create(host=bob, rules={}, now=T0)
    game_start(code=closed.code, player=bob, now=T0)
    room_close(code=closed.code, now=T0)
    families = scrape(client)
    assert gauge_value(families, "fourinarow_rooms_open") == 2
    assert gauge_value(families, "fourinarow_games_playing") == 1


# --- who may read them ---------------------------------------------------------------------------------
@pytest.mark.django_db
def test_a_bearer_token_restricts_the_metrics(client, settings):
    settings.METRICS_TOKEN = "s3cret-token"
    refused = client.get("/metrics")
    assert refused.status_code == 403
    assert refused.json()["code"] == "forbidden"
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 403
    assert client.get("/metrics", HTTP_AUTHORIZATION="Basic s3cret-token").status_code == 403
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret-token").status_code == 200


@pytest.mark.django_db
def test_allowed_addresses_restrict_the_metrics(client, settings):
    settings.METRICS_ALLOWED_ADDRESSES = ["10.0.0.0/8", "::1"]
    assert client.get("/metrics").status_code == 403  # the test client comes from 127.0.0.1
    assert client.get("/metrics", REMOTE_ADDR="10.1.2.3").status_code == 200
    assert client.get("/metrics", REMOTE_ADDR="::1").status_code == 200
    settings.METRICS_TOKEN = "s3cret-token"
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret-token").status_code == 200


@pytest.mark.parametrize(
    ("env", "complaint"),
    [({"METRICS_ALLOWED_ADDRESSES": "127.0.0.1,not-an-address"}, "not-an-address"),
     ({"LOG_FORMAT": "xml"}, "LOG_FORMAT")],
)
def test_a_bad_setting_stops_the_server_at_start(env, complaint):
    base = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    done = subprocess.run([sys.executable, "-c", "import django; django.setup()"], cwd=ROOT,
                          env={**base, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr and complaint in done.stderr


# --- where they are recorded ------------------------------------------------------------------------------
@pytest.mark.django_db
def test_each_kind_of_move_is_counted_once_committed(settings, django_capture_on_commit_callbacks):
    settings.PING_TIMEOUT_SECONDS = 10**6
    settings.DISCONNECT_GRACE_SECONDS = 20
    before = {kind: value("fourinarow_moves_total", kind=kind) for kind in ("person", "cpu", "timeout", "stand_in")}
    drops_before = value("fourinarow_move_service_seconds_count", service="drop")
    with django_capture_on_commit_callbacks(execute=True):
        code, players, game = setup_game(turn_seconds=30)
        game_drop(code=code, player=players[1], peg="a1", ply=0, now=T0)  # a person
        with pytest.raises(Refused):
            game_drop(code=code, player=players[1], peg="a2", ply=1, now=T0)  # refused: not a move
        run_due(T0 + timedelta(seconds=31))  # Bob's turn timer runs out: a timeout move
        cpu_code, cpu_players, _ = setup_game(solo=True)
        game_drop(code=cpu_code, player=cpu_players[1], peg="a1", ply=0, now=T0)
        run_due(T0)  # the CPU seat answers
    moved = {kind: value("fourinarow_moves_total", kind=kind) - before[kind] for kind in before}
    assert moved == {"person": 2, "cpu": 1, "timeout": 1, "stand_in": 0}
    assert value("fourinarow_move_service_seconds_count", service="drop") - drops_before == 3


@pytest.mark.django_db
def test_a_move_rolled_back_is_not_counted(django_capture_on_commit_callbacks):
    code, players, game = setup_game()
    before = value("fourinarow_moves_total", kind="person")
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError), transaction.atomic():
        game_move_write(game, game_move(game, Peg.from_name("a1"), seat=1, cpu_reason="", now=T0))
        raise RuntimeError("something after the move failed: it never happened")
    assert value("fourinarow_moves_total", kind="person") == before


@pytest.mark.django_db
def test_a_stand_in_is_counted_and_the_ticker_lateness_observed(settings, django_capture_on_commit_callbacks):
    settings.PING_TIMEOUT_SECONDS = 10**6
    settings.DISCONNECT_GRACE_SECONDS = 20
    stand_ins = value("fourinarow_moves_total", kind="stand_in")
    count = value("fourinarow_scheduler_lateness_seconds_count", reason="grace")
    total = value("fourinarow_scheduler_lateness_seconds_sum", reason="grace")
    with django_capture_on_commit_callbacks(execute=True):
        code, players, game = setup_game(connect=(2,))  # Ann, to move, is not connected
        made = run_due(T0 + timedelta(seconds=22.5))  # her grace ended at 20 s: taken up 2.5 s late
    assert made == [(0, 1, "away")]
    assert value("fourinarow_moves_total", kind="stand_in") - stand_ins == 1
    assert value("fourinarow_scheduler_lateness_seconds_count", reason="grace") - count == 1
    assert value("fourinarow_scheduler_lateness_seconds_sum", reason="grace") - total == pytest.approx(2.5)


async def test_cpu_think_time_is_observed_by_level():
    before = value("fourinarow_cpu_think_seconds_count", level="2")
    peg = await cpu_pool.compute_move("a1", 2, seed=1)
    assert len(peg) == 2
    assert value("fourinarow_cpu_think_seconds_count", level="2") - before == 1
    assert value("fourinarow_cpu_think_seconds_sum", level="2") > 0


@pytest.mark.django_db
def test_a_failed_channel_layer_send_is_counted():
    ann = player_create(name="Ann", now=T0)
    code = room_create(host=ann, rules={}, now=T0).code
    broken = {"default": {"BACKEND": "config.channel_layer.PubSubLayer",
                          "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]}}}
    before = value("fourinarow_channel_layer_send_failures_total")
    channel_layers.backends.clear()
    try:
        with override_settings(CHANNEL_LAYERS=broken):
            # logs and carries on: a broadcast never undoes a change
            snapshot = messages.RoomSnapshot(room_snapshot(code))
            live_events.deliver(live_events.ToGroup(events.room_group(code), snapshot))
    finally:
        channel_layers.backends.clear()
    assert value("fourinarow_channel_layer_send_failures_total") - before == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("runtime_cleanup")
async def test_open_sockets_and_refused_frames_are_counted():
    ann, key = await make_player_async("Ann")
    code = await make_room_async(ann)
    open_before = value("fourinarow_websocket_connections_open")
    bad_before = value("fourinarow_frames_refused_total", code="bad_frame")
    a = await Client(code, key).connect()
    watcher = await Client(code, None).connect()
    assert value("fourinarow_websocket_connections_open") - open_before == 2
    await a.send_raw("not json")
    assert (await a.error())["code"] == "bad_frame"
    assert value("fourinarow_frames_refused_total", code="bad_frame") - bad_before == 1
    await watcher.close()
    await a.close()
    assert value("fourinarow_websocket_connections_open") == open_before


@pytest.mark.django_db(transaction=True)
async def test_a_refused_socket_is_not_counted_as_open():
    before = value("fourinarow_websocket_connections_open")
    comm = Client("NOPE22", None).comm
    connected, _ = await comm.connect()
    assert connected
    assert (await comm.receive_output(timeout=5))["code"] == 4404
    assert value("fourinarow_websocket_connections_open") == before
