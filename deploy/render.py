"""Render the deployment templates beside this file: fill their ``@@NAME@@`` fields, print the result.

    python deploy/render.py nginx --upstream 127.0.0.1:8001 --upstream 127.0.0.1:8002 \\
        --listen 80 --server-name play.example.com --static-root /srv/fourinarow/staticfiles
    python deploy/render.py systemd --app-dir /srv/fourinarow --user fourinarow --env-file /etc/fourinarow/env

Standard library only, so it runs before the virtualenv exists. A value that could break out of its
line (spaces, ``;``, braces, newlines where they do not belong) is refused rather than written.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIELD = re.compile(r"@@([A-Z_]+)@@")
# A token nginx reads as one word, and a systemd value on one line.
NGINX_WORD = re.compile(r"^[^\s;{}'\"#$\\]+$")
SYSTEMD_VALUE = re.compile(r"^[^\n\r%]+$")


class RenderError(ValueError):
    """A value the template cannot hold, or a field left unfilled."""


def fill(template: str, values: dict[str, str]) -> str:
    """``template`` with every ``@@NAME@@`` replaced by ``values[NAME]``.

    Raises:
        RenderError: a field of the template has no value.
    """
    missing = sorted(set(FIELD.findall(template)) - set(values))
    if missing:
        raise RenderError(f"no value for {', '.join(missing)}")
    return FIELD.sub(lambda match: values[match.group(1)], template)


def _word(name: str, value: str) -> str:
    if not NGINX_WORD.match(value):
        raise RenderError(f"{name} {value!r} is not a single nginx word")
    return value


def _absolute(name: str, value: str) -> str:
    if not value.startswith("/"):
        raise RenderError(f"{name} must be an absolute path, not {value!r}")
    return value.rstrip("/") or "/"


def render_nginx(*, upstreams: list[str], listen: str, server_name: str, static_root: str) -> str:
    """The nginx site file for daphne processes at ``upstreams`` (``host:port`` each)."""
    if not upstreams:
        raise RenderError("at least one --upstream host:port is needed")
    for upstream in upstreams:
        host, _, port = upstream.rpartition(":")
        if not host or not port.isdigit():
            raise RenderError(f"--upstream {upstream!r} is not host:port")
        _word("--upstream", upstream)
    servers = "\n".join(f"    server {upstream} max_fails=0;" for upstream in upstreams)
    template = (HERE / "nginx.conf.template").read_text()
    return fill(template, {
        "UPSTREAM_SERVERS": servers,
        "LISTEN": _word("--listen", listen),
        "SERVER_NAME": _word("--server-name", server_name),
        "STATIC_ROOT": _word("--static-root", _absolute("--static-root", static_root)),
    })


def render_systemd(*, app_dir: str, venv: str | None, user: str, env_file: str) -> str:
    """The systemd template unit ``fourinarow@.service`` (instance = port) for the app in ``app_dir``."""
    app = _absolute("--app-dir", app_dir)
    values = {
        "APP_DIR": app,
        "VENV": _absolute("--venv", venv) if venv else f"{app}/.venv",
        "USER": user,
        "ENV_FILE": _absolute("--env-file", env_file),
    }
    for name, value in values.items():
        if not SYSTEMD_VALUE.match(value) or " " in value:
            raise RenderError(f"{name} {value!r} cannot go in a unit file")
    return fill((HERE / "fourinarow@.service.template").read_text(), values)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Render a deployment template to standard output.")
    kinds = parser.add_subparsers(dest="kind", required=True)
    nginx = kinds.add_parser("nginx", help="the nginx site file")
    nginx.add_argument("--upstream", action="append", default=[], help="a daphne process, host:port (repeat)")
    nginx.add_argument("--listen", default="80", help="nginx's listen address (default 80)")
    nginx.add_argument("--server-name", default="_", help="the site's host name (default _: any)")
    nginx.add_argument("--static-root", required=True, help="STATIC_ROOT, where collectstatic wrote")
    systemd = kinds.add_parser("systemd", help="the systemd template unit, one instance per port")
    systemd.add_argument("--app-dir", required=True, help="the checkout (it holds manage.py)")
    systemd.add_argument("--venv", default=None, help="the virtualenv (default APP_DIR/.venv)")
    systemd.add_argument("--user", default="fourinarow", help="the user the processes run as")
    systemd.add_argument("--env-file", default="/etc/fourinarow/env", help="the shared environment file")
    args = parser.parse_args(argv)
    try:
        if args.kind == "nginx":
            text = render_nginx(upstreams=args.upstream, listen=args.listen, server_name=args.server_name,
                                static_root=args.static_root)
        else:
            text = render_systemd(app_dir=args.app_dir, venv=args.venv, user=args.user, env_file=args.env_file)
    except RenderError as exc:
        print(f"render.py: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
