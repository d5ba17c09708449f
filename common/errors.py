"""Refusals: a request that breaks the rules of a room, a game or an account.

Each has a stable code and a sentence for a player. :data:`STATUS_OF_CODE` is the one table from a code to
its HTTP status: the REST API's exception handler (``config.api``) and the bots' NDJSON streams
(``bots.streams.base``) answer every refusal by it, so no view chooses a status. A code the table does not
list answers :data:`DEFAULT_STATUS`.
"""

from __future__ import annotations

from collections.abc import Mapping

from common.translation import gettext, ngettext


class Refused(Exception):
    """A service refused a request and changed nothing.

    Attributes:
        code: stable machine code (``not_your_turn``, ``stale``, ``seat_taken``, ...).
        message: one sentence a player can read, in the language active where it was raised.
        details: more of the answer's body beside ``code`` and ``message`` (a stale run's state), or None.
    """

    def __init__(self, code: str, message: str, *, details: Mapping[str, object] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details

    def __repr__(self) -> str:
        return f"Refused({self.code!r}, {self.message!r})"


class RateLimited(Refused):
    """Too many requests of one kind from one caller; ``retry_after`` is how many seconds until the next is heard.

    Answered over HTTP as 429 with a ``Retry-After`` header. ``code`` is ``rate_limited`` unless a more
    telling one is given (``too_many_streams``).
    """

    def __init__(self, retry_after: int, *, message: str | None = None, code: str = "rate_limited") -> None:
        what = gettext("Too many requests.") if message is None else message
        wait = ngettext("Try again in %(seconds)d second.", "Try again in %(seconds)d seconds.", retry_after)
        # Two sentences, joined as the language joins them.
        super().__init__(code, gettext("%(refusal)s %(retry)s") % {"refusal": what,
                                                                   "retry": wait % {"seconds": retry_after}})
        self.retry_after = retry_after


class Busy(RateLimited):
    """The server has no room for this request now (a bounded lane is full, whoever filled it): ``busy``,
    answered over HTTP as 503 with a ``Retry-After`` header, as a :class:`RateLimited` carries it."""

    def __init__(self, retry_after: int, *, message: str) -> None:
        super().__init__(retry_after, message=message, code="busy")


# Every refusal code of the project, by the HTTP status it answers (docs/protocol.md, docs/bots.md). Codes
# heard only on a websocket are here too, at 400, so the table is the index of the codes; a code has one
# status wherever it is raised (a test checks that no code is listed twice and that every code raised is).
CODES_BY_STATUS: Mapping[int, tuple[str, ...]] = {
    400: (  # the request breaks a rule: fix it and send it again
        "already_halved", "bad_chat", "bad_description", "bad_dir", "bad_email", "bad_frame", "bad_link", "bad_mode",
        "bad_name", "bad_peg", "bad_ply", "bad_query", "bad_reason", "bad_record", "bad_report", "bad_request",
        "bad_rules", "bad_username", "empty", "engine_error", "game_not_over", "game_over", "no_again", "no_berserk",
        "no_seat", "no_timer", "no_undo", "not_allowed", "not_host", "not_your_turn", "nothing_to_take_back",
        "offer_limited", "own_seek", "peg_full", "player_changed", "self_block", "self_challenge", "self_follow",
        "self_report", "timer_required", "too_late", "too_long", "too_many_blocks", "too_many_challenges",
        "too_many_follows", "too_many_seeks", "too_many_tokens", "weak_password",
        "bad_text",  # text with a NUL or a lone surrogate (common.text), over REST and on every socket
    ),
    401: ("bad_credentials", "bad_token", "no_session", "no_token"),  # who is asking is unknown
    403: ("account_required", "banned", "blocked", "bot_account", "muted", "no_account", "not_your_game", "not_yours"),
    404: ("no_analysis", "no_challenge", "no_game", "no_player", "no_room", "no_run", "no_seek", "not_found"),
    405: ("method_not_allowed",),
    409: (  # the request is well formed but the thing it acts on is past it
        "already_bot", "already_registered", "challenge_over", "email_taken", "finished", "game_playing",
        "games_played", "guest_player", "inbox_full", "name_taken", "no_offer", "not_joined", "not_playing",
        "not_won", "run_ended", "seat_taken", "stale", "undo_spent",
    ),
    410: ("room_closed",),
    429: ("rate_limited", "too_many_streams"),  # a RateLimited also carries Retry-After
    503: ("busy", "unavailable"),  # try again in a moment: a check ran past its budget, a part is down
}
STATUS_OF_CODE: Mapping[str, int] = {code: status for status, codes in CODES_BY_STATUS.items() for code in codes}
DEFAULT_STATUS = 400  # a code the table does not list: a refusal still, never a 500


def status_for(code: str) -> int:
    """The HTTP status a refusal with ``code`` answers (:data:`DEFAULT_STATUS` for a code not listed)."""
    return STATUS_OF_CODE.get(code, DEFAULT_STATUS)
