"""Every request that makes a device's guest counts it against the client address (issue 47): not only
``POST /api/session`` but taking a seat (``POST /api/rooms/{code}/seat``), creating a room and starting an
arcade run, which make one on the way. Past the quota each answers 429 ``rate_limited`` and makes no player."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.utils import timezone

from lobby.rooms.services import room_create
from players.models import Player
from players.services import player_create

pytestmark = pytest.mark.django_db


def post(client: Client, path: str):
    body = {"mode": "classic"} if path == "/api/arcade/runs" else {}
    return client.post(path, data=json.dumps(body), content_type="application/json")


def test_each_way_of_making_a_guest_counts_against_the_address(settings):
    settings.GUESTS_PER_HOUR_PER_ADDRESS = 3
    host = player_create(name="Host", now=timezone.now())
    codes = [room_create(host=host, rules={}, now=timezone.now()).code for _ in range(2)]
    made = [post(Client(REMOTE_ADDR="10.6.0.1"), path).status_code
            for path in (f"/api/rooms/{codes[0]}/seat", "/api/arcade/runs", "/api/rooms")]
    assert made == [200, 201, 201]
    before = Player.objects.count()
    for path in (f"/api/rooms/{codes[1]}/seat", "/api/arcade/runs", "/api/rooms", "/api/session"):
        refused = post(Client(REMOTE_ADDR="10.6.0.1"), path)
        assert (refused.status_code, refused.json()["code"]) == (429, "rate_limited"), path
    assert Player.objects.count() == before
    assert post(Client(REMOTE_ADDR="10.6.0.2"), f"/api/rooms/{codes[1]}/seat").status_code == 200
