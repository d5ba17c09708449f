"""deploy/render.py fills every field of the deployment templates and refuses values that would break out."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

RENDER = Path(__file__).resolve().parent.parent.parent / "deploy" / "render.py"


def render(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(RENDER), *args], capture_output=True, text=True, timeout=30)


def test_the_nginx_site_names_every_process_and_leaves_no_field_unfilled():
    done = render("nginx", "--upstream", "127.0.0.1:8001", "--upstream", "127.0.0.1:8002",
                  "--server-name", "play.example.com", "--static-root", "/srv/app/staticfiles/")
    assert done.returncode == 0, done.stderr
    assert "    server 127.0.0.1:8001 max_fails=0;\n    server 127.0.0.1:8002 max_fails=0;\n" in done.stdout
    assert "alias /srv/app/staticfiles/;" in done.stdout and "server_name play.example.com;" in done.stdout
    assert "@@" not in done.stdout.replace("@@...@@", "")


def test_the_unit_runs_daphne_from_the_virtualenv_on_the_instance_port():
    done = render("systemd", "--app-dir", "/srv/app", "--user", "games", "--env-file", "/etc/app.env")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    # config.serve is daphne with its websocket pings set from PING_TIMEOUT_SECONDS
    assert "ExecStart=/srv/app/.venv/bin/python -m config.serve --proxy-headers --access-log /dev/null " \
           "-b 127.0.0.1 -p %i config.asgi:application" in lines
    assert {"WorkingDirectory=/srv/app", "EnvironmentFile=/etc/app.env", "User=games"} <= set(lines)


@pytest.mark.parametrize(
    "args",
    [
        ["nginx", "--upstream", "127.0.0.1:8001", "--static-root", "/srv/x; include /etc/shadow"],
        ["nginx", "--upstream", "127.0.0.1", "--static-root", "/srv/x"],
        ["nginx", "--static-root", "/srv/x"],
        ["nginx", "--upstream", "127.0.0.1:8001", "--static-root", "relative/path"],
        ["systemd", "--app-dir", "/srv/my app"],
        ["systemd", "--app-dir", "/srv/app", "--user", "a\nExecStartPre=/bin/evil"],
    ],
)
def test_values_that_would_break_the_file_are_refused(args):
    done = render(*args)
    assert done.returncode == 2
    assert done.stdout == "" and done.stderr.startswith("render.py: ")
