"""What the environment variables make of the settings, read by a fresh interpreter as a server reads them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

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
