"""The email tests' fixtures: a real SMTP server, Django's SMTP backend pointed at it, quick hashing."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from tests.mail.smtpkit import smtp  # noqa: F401  (the fixture: a real SMTP server)


@pytest.fixture(autouse=True)
def _links_to_the_test_client(settings):
    settings.SITE_URL = "http://testserver"


@pytest.fixture(autouse=True)
def _no_counted_requests():
    cache.clear()
    yield
    cache.clear()
