"""The one parser of whole numbers in a request's query (``?page=2``, ``?ply=6``, ``?offset=40``).

Python's ``int()`` takes far more than a query should: other scripts' digits (``"²".isdigit()`` is true, and
``int("٣")`` is 3), spaces, underscores, and 4,300 digits before it refuses; and a number it does take may
overflow the database's 64-bit integers. Here a number is 1 to 19 ASCII digits (a minus sign first where
``low`` is negative) within ``low``..``high``, or a refusal that does not echo the text.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from typing import TypeGuard, TypeVar

from common.errors import Refused
from common.translation import gettext

# The largest offset of a paged list (``?offset=``): far past any real list, and well inside every
# database's integer range (an unbounded offset overflowed the SQL OFFSET: a 500).
MAX_OFFSET = 1_000_000_000

Choice = TypeVar("Choice", bound=int | None)

_INTEGER = re.compile(r"-?[0-9]{1,19}", re.ASCII)


def parse_int(text: str, *, name: str, low: int, high: int) -> int:
    """``text`` as a whole number from ``low`` to ``high`` (inclusive).

    Raises:
        Refused(bad_request): not 1 to 19 ASCII digits, or outside the bounds; the message names ``name``
            and the bounds.
    """
    if _INTEGER.fullmatch(text) is not None:
        number = int(text)
        if low <= number <= high:
            return number
    raise Refused("bad_request", gettext("%(name)s: a whole number from %(low)s to %(high)s.")
                  % {"name": name, "low": low, "high": high})


def query_int(params: Mapping[str, str], name: str, *, default: int, low: int, high: int) -> int:
    """The query parameter ``name`` of ``params`` by :func:`parse_int`; ``default`` when it is absent.

    Raises:
        Refused(bad_request): present but not a whole number within the bounds.
    """
    text = params.get(name)
    return default if text is None else parse_int(text, name=name, low=low, high=high)


def query_int_or_none(params: Mapping[str, str], name: str, *, low: int, high: int) -> int | None:
    """As :func:`query_int`, None when the parameter is absent."""
    text = params.get(name)
    return None if text is None else parse_int(text, name=name, low=low, high=high)


def one_of(value: object, choices: Collection[Choice]) -> TypeGuard[Choice]:
    """Whether ``value`` (decoded JSON) is exactly one of ``choices``: an int or None among them, never a
    bool (``True == 1``) nor a float equal to one (``30.0 == 30``: it would be stored and sent as 30.0)."""
    return (value is None or type(value) is int) and value in choices
