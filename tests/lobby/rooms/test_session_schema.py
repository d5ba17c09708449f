"""What the OpenAPI schema says of the session and of the rooms' limits."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    with django_db_blocker.unblock():
        response = Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    return response.json()


def test_a_device_without_a_player_is_a_200_with_a_null_player(schema):
    get = schema["paths"]["/api/session"]["get"]
    assert set(get["responses"]) == {"200"}
    session = schema["components"]["schemas"]["SessionOut"]
    assert set(session["required"]) == {"player", "rating", "username", "rooms"}
    assert session["properties"]["player"]["nullable"] is True
    assert session["properties"]["rating"]["nullable"] is True


@pytest.mark.parametrize(("path", "method"), [("/api/rooms", "post"), ("/api/rooms/{code}", "get")])
def test_the_rooms_limits_are_documented(schema, path, method):
    assert "429" in schema["paths"][path][method]["responses"]
