"""Reading the settings' environment variables (config/settings.py): a blank value is the default, and a value
that is not what the setting takes stops the server at start with a message naming the variable and the value
(``ImproperlyConfigured``), never a bare ``ValueError`` from deep in the settings."""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Callable
from typing import TypeVar

from django.core.exceptions import ImproperlyConfigured

T = TypeVar("T")


def _read(name: str, default: T, parse: Callable[[str], T], what: str) -> T:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        return parse(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}: {value!r} is not {what}") from None


def env_bool(name: str, default: bool) -> bool:
    """True for 1, true, yes or on (any case); anything else is False."""
    return _read(name, default, lambda value: value.lower() in {"1", "true", "yes", "on"}, "a yes or no")


def env_float(name: str, default: float) -> float:
    return _read(name, default, float, "a number")


def env_int(name: str, default: int) -> int:
    return _read(name, default, int, "a whole number")


def env_networks(name: str) -> list[str]:
    """A comma-separated list of IP addresses or networks (``10.0.0.0/8``), each checked."""
    entries = [item.strip() for item in os.environ.get(name, "").split(",") if item.strip()]
    for entry in entries:
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            raise ImproperlyConfigured(f"{name}: {entry!r} is not an IP address or network") from None
    return entries
