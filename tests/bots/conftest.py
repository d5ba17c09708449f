import pytest


@pytest.fixture(autouse=True)
def _quick_hashing(settings):
    """Django's real hasher is slow by design; these tests check the bot API, not the hash's strength."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
