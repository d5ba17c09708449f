"""The game record file (``docs/records.md``): one game as text, PGN-like; written and read here.

Pure (no Django, no I/O): :func:`record_text` writes one, :func:`record_parse` reads one and replays its
moves with the engine, refusing a bad one with :class:`RecordError` naming the move number and the reason.
A text holding only moves (``a1 b1 c3``, as the engine's CLI reads) is a record too.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from games.engine import EngineError, Position
from games.engine.errors import gettext_noop

MAX_RECORD_BYTES = 64 * 1024
"""The largest record text :func:`record_parse` reads (a full 64-move game with every tag is under 1 KiB)."""

TAGS = ("Red", "Yellow", "RedRating", "YellowRating", "Date", "Result", "Termination", "TimeControl", "Ranked",
        "Game", "Arena")
"""The known tags, in the order a record is written with them."""

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
TERMINATIONS = ("line", "resign", "timeout", "full board", "abandoned")
_TAG_VALUES: Mapping[str, tuple[str, ...]] = {
    "Result": RESULTS, "Termination": TERMINATIONS, "Ranked": ("yes", "no"),
}
_TAG_PATTERNS: Mapping[str, re.Pattern[str]] = {
    "RedRating": re.compile(r"\d{1,4}"), "YellowRating": re.compile(r"\d{1,4}"),
    "Date": re.compile(r"\d{4}\.\d{2}\.\d{2}"), "TimeControl": re.compile(r"-|\d{1,5}[smhd]"),
}
_TAG_LINE = re.compile(r'\[([A-Za-z]+)\s+"((?:[^"\\]|\\.)*)"\]')
_MOVE_NUMBER = re.compile(r"([0-9]{1,3})\.")  # a game has at most 32 numbered moves; int() of 5,000 digits fails
_PEG = re.compile(r"[a-dA-D][1-4]")
_STATUS_OF_TERMINATION = {"resign": "resigned", "timeout": "resigned", "abandoned": "abandoned"}


class RecordError(ValueError):
    """A record that cannot be read. ``move`` is its move number (1 for Red's and Yellow's first moves),
    ``ply`` the 0-based index of the refused move, both None for an error outside the moves. ``message`` is
    English: ``template % params``, translated where it is shown (``common.translation.render``; a param
    that is an engine error is rendered too)."""

    def __init__(self, template: str, *, params: Mapping[str, object] | None = None, move: int | None = None,
                 ply: int | None = None) -> None:
        self.template, self.params = template, dict(params or {})
        message = template % self.params if self.params else template
        super().__init__(message)
        self.message, self.move, self.ply = message, move, ply


@dataclass(frozen=True, slots=True)
class Record:
    """A record read and replayed: its tags, its moves, and the result the moves and tags agree on.

    ``status`` is ``playing``, ``won`` (a line), ``drawn`` (a full board or an agreed draw),
    ``resigned`` (a decisive result without a line) or ``abandoned``; ``winner`` is ``red``,
    ``yellow`` or None; ``line`` the winning line's cells (peg, level) when a line ended the game.
    """

    headers: Mapping[str, str]
    moves: tuple[str, ...]
    result: str
    status: str
    winner: str | None
    line: tuple[tuple[str, int], ...] | None

    def to_json(self) -> dict[str, object]:
        return {"headers": dict(self.headers), "moves": list(self.moves), "result": self.result,
                "status": self.status, "winner": self.winner,
                "line": None if self.line is None else [{"peg": peg, "level": level} for peg, level in self.line]}


def _quoted(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def record_text(headers: Mapping[str, str], moves: list[str] | tuple[str, ...], result: str) -> str:
    """The record file of one game: the tags given (in :data:`TAGS` order), a blank line, the numbered
    moves (ten moves a line) and the result token; it ends with a newline."""
    lines = [f'[{tag} "{_quoted(headers[tag])}"]' for tag in TAGS if tag in headers]
    tokens: list[str] = []
    for ply, peg in enumerate(moves):
        if ply % 2 == 0:
            tokens.append(f"{ply // 2 + 1}.")
        tokens.append(peg)
    tokens.append(result)
    body, line = [], []
    for token in tokens:
        line.append(token)
        if token.endswith(".") and len(line) > 30:
            body.append(" ".join(line[:-1]))
            line = [token]
    body.append(" ".join(line))
    return "\n".join([*lines, "", *body] if lines else body) + "\n"


def _headers(tag_lines: list[tuple[int, str]]) -> dict[str, str]:
    headers: dict[str, str] = {}
    for number, text in tag_lines:
        match = _TAG_LINE.fullmatch(text)
        if match is None:
            raise RecordError(gettext_noop('Line %(line)s is not a tag pair like [Red "Ann"].'),
                              params={"line": number})
        tag, value = match.group(1), re.sub(r"\\(.)", r"\1", match.group(2))
        if tag not in TAGS:
            raise RecordError(gettext_noop("Line %(line)s: unknown tag %(tag)r (known: %(known)s)."),
                              params={"line": number, "tag": tag, "known": ", ".join(TAGS)})
        if tag in headers:
            raise RecordError(gettext_noop("Line %(line)s: the tag %(tag)s is given twice."),
                              params={"line": number, "tag": tag})
        allowed, pattern = _TAG_VALUES.get(tag), _TAG_PATTERNS.get(tag)
        if (allowed is not None and value not in allowed) or (pattern is not None and not pattern.fullmatch(value)):
            expected = " | ".join(allowed) if allowed is not None else pattern.pattern if pattern else ""
            raise RecordError(gettext_noop("Line %(line)s: %(value)r is not a valid %(tag)s (%(expected)s)."),
                              params={"line": number, "value": value, "tag": tag, "expected": expected})
        headers[tag] = value
    return headers


def _split(text: str) -> tuple[list[tuple[int, str]], list[str]]:
    """The tag lines (with their line numbers) and the movetext's tokens."""
    tag_lines: list[tuple[int, str]] = []
    tokens: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("[") and not tokens:
            tag_lines.append((number, line))
        elif line:
            # "1.a1" and "a1,b1" are read as "1. a1" and "a1 b1".
            tokens.extend(re.sub(r"(\d+\.)", r" \1 ", line).replace(",", " ").split())
    return tag_lines, tokens


def _moves(tokens: list[str]) -> tuple[list[str], str | None]:
    """The pegs in order and the result token (None when the movetext gives none)."""
    moves: list[str] = []
    result = None
    for token in tokens:
        move = len(moves) // 2 + 1
        if result is not None:
            raise RecordError(gettext_noop("Move %(move)s: %(token)r comes after the result %(result)s."),
                              params={"move": move, "token": token, "result": result}, move=move, ply=len(moves))
        number = _MOVE_NUMBER.fullmatch(token)
        if number is not None:
            if len(moves) % 2 or int(number.group(1)) != move:
                raise RecordError(gettext_noop("Move %(move)s: the move number %(token)s is out of sequence."),
                                  params={"move": move, "token": token}, move=move, ply=len(moves))
        elif token in RESULTS:
            result = token
        elif _PEG.fullmatch(token):
            moves.append(token.lower())
        else:
            raise RecordError(gettext_noop("Move %(move)s: %(token)r is not a peg (a1 to d4), a move number or a "
                                           "result."), params={"move": move, "token": token}, move=move, ply=len(moves))
    return moves, result


def _replayed(moves: list[str]) -> Position:
    try:
        return Position.from_record(" ".join(moves))
    except EngineError as error:
        ply = error.ply or 0
        template = (gettext_noop("Move %(move)s (Red %(peg)s): %(reason)s") if ply % 2 == 0
                    else gettext_noop("Move %(move)s (Yellow %(peg)s): %(reason)s"))
        raise RecordError(template, params={"move": ply // 2 + 1, "peg": moves[ply], "reason": error},
                          move=ply // 2 + 1, ply=ply) from None


def _outcome(position: Position, result: str, termination: str | None) -> tuple[str, str | None]:
    """The status and winner the moves and the declared result agree on."""
    outcome = position.outcome
    if outcome is not None:
        winner = None if outcome.winner is None else str(outcome.winner)
        expected = {"red": "1-0", "yellow": "0-1", None: "1/2-1/2"}[winner]
        if result not in (expected, "*"):
            template = (gettext_noop("The result %(result)s contradicts the moves: they end in a line of four "
                                     "(%(expected)s).") if winner
                        else gettext_noop("The result %(result)s contradicts the moves: they end in a full board "
                                          "(%(expected)s)."))
            raise RecordError(template, params={"result": result, "expected": expected})
        return ("won" if winner else "drawn"), winner
    if result == "1/2-1/2":
        return "drawn", None
    if result in ("1-0", "0-1"):
        return _STATUS_OF_TERMINATION.get(termination or "resign", "resigned"), "red" if result == "1-0" else "yellow"
    return ("abandoned" if termination == "abandoned" else "playing"), None


def record_parse(text: str) -> Record:
    """Read a record file (or a text of moves only) and replay it.

    Raises:
        RecordError: larger than :data:`MAX_RECORD_BYTES`, a malformed or unknown tag, a token that is not
            a move, a move on a full peg or after the end (``move`` names it), a result the moves contradict.
    """
    if len(text.encode("utf-8")) > MAX_RECORD_BYTES:
        raise RecordError(gettext_noop("A record is at most %(most)s bytes."), params={"most": MAX_RECORD_BYTES})
    tag_lines, tokens = _split(text)
    headers = _headers(tag_lines)
    moves, token = _moves(tokens)
    declared = headers.get("Result")
    if token is not None and declared is not None and token != declared:
        raise RecordError(gettext_noop("The result token %(token)s differs from the Result tag %(declared)s."),
                          params={"token": token, "declared": declared})
    result = token or declared or "*"
    position = _replayed(moves)
    status, winner = _outcome(position, result, headers.get("Termination"))
    if position.outcome is not None:
        result = {"red": "1-0", "yellow": "0-1", None: "1/2-1/2"}[winner]
    line = None
    if position.outcome is not None and position.outcome.line is not None:
        line = tuple((str(cell.peg), cell.level) for cell in position.outcome.line)
    return Record(headers=headers, moves=tuple(moves), result=result, status=status, winner=winner, line=line)
