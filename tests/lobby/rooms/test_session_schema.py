"""What the OpenAPI schema says of the rooms' limits."""

from __future__ import annotations

import pytest
from django.test import Client

# The schema, generated once a process (a module fixture): one worker.
pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("session_schema")]


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    with django_db_blocker.unblock():
        response = Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    return response.json()


@pytest.mark.parametrize(("path", "method"), [("/api/rooms", "post"), ("/api/rooms/{code}", "get")])
def test_the_rooms_limits_are_documented(schema, path, method):
    assert "429" in schema["paths"][path][method]["responses"]
