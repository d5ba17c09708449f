"""What the environment variables make of the settings, read by a fresh interpreter as a server reads them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# The settings module alone decides these (the apps, which django.setup() would load too, cost 1.5 s of CPU).
PRINT_DATABASE = (
    "import json; from django.conf import settings; "
    "db = settings.DATABASES['default']; print(json.dumps({'ENGINE': db['ENGINE'], "
    "'CONN_MAX_AGE': db['CONN_MAX_AGE'], 'OPTIONS': db.get('OPTIONS', {})}))"
)


def database_settings(**env: str) -> dict[str, object]:
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", **env}
    out = subprocess.run([sys.executable, "-c", PRINT_DATABASE], cwd=ROOT, env=environment, check=True,
                         capture_output=True, text=True, timeout=60).stdout
    result: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    return result


def test_pooled_postgresql_connections_get_the_pool_and_kept_ones_do_not():
    url = "postgres://postgres@127.0.0.1:5432/anything"
    pooled = database_settings(DATABASE_URL=url, DB_CONNECTIONS="pool", DB_POOL_SIZE="7")
    assert pooled["ENGINE"] == "config.postgres" and pooled["CONN_MAX_AGE"] == 0
    assert pooled["OPTIONS"]["pool"]["max_size"] == 7
    kept = database_settings(DATABASE_URL=url)
    assert kept["ENGINE"] == "config.postgres" and kept["CONN_MAX_AGE"] is None and "pool" not in kept["OPTIONS"]


def test_a_setting_that_is_not_a_number_stops_the_start_naming_the_variable_and_its_value():
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DB_THREADS": "four",
                   "TURN_TIME_SCALE": " "}  # (blank: the default)
    done = subprocess.run([sys.executable, "-c", PRINT_DATABASE], cwd=ROOT, env=environment, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert last == "django.core.exceptions.ImproperlyConfigured: DB_THREADS: 'four' is not a whole number"
    assert "ValueError" not in done.stderr


def test_the_settings_readers_take_blank_as_the_default_and_refuse_what_they_cannot_read(monkeypatch):
    from django.core.exceptions import ImproperlyConfigured

    from config.env import env_bool, env_float, env_int, env_networks

    monkeypatch.setenv("X", "  ")
    assert (env_int("X", 3), env_float("X", 0.5), env_bool("X", True)) == (3, 0.5, True)
    monkeypatch.setenv("X", " 7 ")
    assert (env_int("X", 3), env_float("X", 0.5), env_bool("X", True)) == (7, 7.0, False)
    monkeypatch.setenv("X", "On")
    assert env_bool("X", False) is True
    monkeypatch.setenv("X", "2.5")
    with pytest.raises(ImproperlyConfigured, match=r"^X: '2\.5' is not a whole number$"):
        env_int("X", 1)
    monkeypatch.setenv("X", "fast")
    with pytest.raises(ImproperlyConfigured, match=r"^X: 'fast' is not a number$"):
        env_float("X", 1.0)
    monkeypatch.setenv("X", "10.0.0.0/8,nowhere")
    with pytest.raises(ImproperlyConfigured, match=r"^X: 'nowhere' is not an IP address or network$"):
        env_networks("X")
