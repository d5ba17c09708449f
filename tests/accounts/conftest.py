"""The email tests' fixtures: a real SMTP server, Django's SMTP backend pointed at it, quick hashing."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from tests.accounts.smtpkit import SmtpServer


@pytest.fixture(autouse=True)
def _links_to_the_test_client(settings):
    settings.SITE_URL = "http://testserver"


@pytest.fixture(autouse=True)
def _no_counted_requests():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def smtp(settings):
    server = SmtpServer().up()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", server.port, 5
    yield server
    server.down()

