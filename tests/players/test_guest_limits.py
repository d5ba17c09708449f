"""Guests made per client address have a quota (issue 47): a guest costs nothing, so every per-player limit
rests on it. Past it ``POST /api/session`` answers 429 ``rate_limited`` with ``Retry-After`` and makes no
player; a device that has its player already, and another address, are not refused."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from players.models import Player

pytestmark = pytest.mark.django_db


def make_guest(client: Client, body: object = None):
    return client.post("/api/session", data=json.dumps(body if body is not None else {}),
                       content_type="application/json")


def test_one_address_makes_at_most_its_quota_of_guests_in_an_hour(settings):
    settings.GUESTS_PER_HOUR_PER_ADDRESS = 3
    devices = [Client(REMOTE_ADDR="10.5.0.1") for _ in range(4)]
    assert make_guest(devices[0], {"name": 7}).status_code == 400  # a refused name makes none, counts none
    assert [make_guest(device).status_code for device in devices[:3]] == [201, 201, 201]
    refused = make_guest(devices[3])
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    assert int(refused["Retry-After"]) > 0 and set(refused.json()) >= {"code", "message"}
    assert Player.objects.count() == 3
    assert make_guest(devices[0], {"name": "Ann"}).status_code == 200  # a rename is no new guest
    assert make_guest(Client(REMOTE_ADDR="10.5.0.2")).status_code == 201
