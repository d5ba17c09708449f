"""The analysis board's answers (``GET /api/analysis``): the engine's verdict on a position and each of its
moves (``games.engine.verdicts``), within a CPU budget, cached by the position's symmetry class.

The cache is Django's (Redis when ``REDIS_URL`` is set, so every process shares it): an answer is stored in
the canonical orientation under the class's key and turned back into the asked position's orientation
when read. An answer that settled every move is final and kept for good; one that ran out of budget is
kept a day and recomputed when a larger budget is asked than it had.

An answer is computed in the analysis board's lane of the CPU workers (``games.cpu_pool.compute_board``:
bounded per process, with a short queue), never in the request's thread; a full lane refuses ``busy``.
The cache is read and written in the request's lane of the one offload.
"""

from __future__ import annotations

import logging
import math
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext
from redis.exceptions import RedisError

from common.errors import Busy
from games.cpu_pool import LaneFull, compute_board
from games.engine import Colour, Peg, Position
from games.engine.verdicts import BoardVerdict
from live.offload import offload
from study.orientation import Oriented

log = logging.getLogger(__name__)

CACHE_VERSION = 1
"""Bump when a change of the engine can change an answer."""
UNSETTLED_SECONDS = 24 * 3600


def _key(oriented: Oriented) -> str:
    return f"study:analysis:{CACHE_VERSION}:{oriented.key}"


def _stored(verdict: BoardVerdict, oriented: Oriented, budget_ms: int) -> dict[str, Any]:
    """The answer in the canonical orientation (pegs as indices), as cached."""
    to_canonical = oriented.symmetries[0]
    return {
        "verdict": verdict.verdict.value, "plies": verdict.plies,
        "moves": sorted([to_canonical.apply_peg(m.peg).index, m.verdict.value, m.plies] for m in verdict.moves),
        "best": [to_canonical.apply_peg(peg).index for peg in verdict.best],
        "depth": verdict.depth, "complete": verdict.complete, "stopped": verdict.stopped,
        "budget_ms": budget_ms, "spent_ms": round(verdict.spent_s * 1000, 1),
    }


def _threats(position: Position) -> list[dict[str, Any]]:
    """Each side's threat cells (a line that one more bead completes), the playable ones marked; none once
    the game is over (nothing is left to play)."""
    if position.to_move is None:
        return []
    return [{"colour": str(threat.colour), "peg": str(threat.cell.peg), "level": threat.cell.level,
             "playable": threat.playable} for colour in Colour for threat in position.threats(colour)]


def _result(position: Position) -> dict[str, Any]:
    """How a finished position ended: ``winner`` (None for a full board) and the winning ``line``'s cells as
    in a game record; both None while the game goes on."""
    outcome = position.outcome
    if outcome is None or outcome.winner is None:
        return {"winner": None, "line": None}
    cells = outcome.line or ()
    return {"winner": str(outcome.winner), "line": [{"peg": str(cell.peg), "level": cell.level} for cell in cells]}


def _answer(position: Position, oriented: Oriented, stored: dict[str, Any], *, cached: bool) -> dict[str, Any]:
    moves = [{"peg": str(oriented.asked_peg(index)), "verdict": verdict, "plies": plies}
             for index, verdict, plies in stored["moves"]]
    moves.sort(key=lambda move: Peg.from_name(str(move["peg"])).index)
    return {
        "ply": position.ply, "to_move": None if position.to_move is None else str(position.to_move),
        **_result(position),
        "verdict": stored["verdict"], "plies": stored["plies"], "moves": moves,
        "best": [str(oriented.asked_peg(index)) for index in stored["best"]],
        "threats": _threats(position), "depth": stored["depth"], "complete": stored["complete"],
        "stopped": stored["stopped"], "budget_ms": stored["budget_ms"], "spent_ms": stored["spent_ms"],
        "cached": cached,
    }


def _cached(key: str) -> dict[str, Any] | None:
    try:
        found = cache.get(key)
    except RedisError as exc:
        log.warning("analysis cache unreachable (%s): computing", exc)
        return None
    return found if isinstance(found, dict) else None


def _cache_put(key: str, stored: dict[str, Any]) -> None:
    try:
        cache.set(key, stored, timeout=None if stored["complete"] else UNSETTLED_SECONDS)
    except RedisError as exc:
        log.warning("analysis not cached: the cache is unreachable (%s)", exc)


async def analysis_answer(position: Position, *, budget_ms: int) -> dict[str, Any]:
    """The analysis board's answer for ``position``: from the cache when it holds one computed with at
    least ``budget_ms`` (or a final one), else computed now within ``budget_ms`` of a CPU worker's time.

    Raises:
        Busy: the process's analysis board lane is full (``ANALYSIS_BOARD_WORKERS`` + ``ANALYSIS_BOARD_QUEUE``).
    """
    oriented = Oriented.of(position)
    key = _key(oriented)
    found = await offload(_cached, lane="request")(key)
    if found is not None and (found["complete"] or found["budget_ms"] >= budget_ms):
        return _answer(position, oriented, found, cached=True)
    try:
        verdict = await compute_board(position, budget_ms=budget_ms)
    except LaneFull:
        raise Busy(math.ceil(settings.ANALYSIS_BOARD_MAX_MS / 1000),
                   message=gettext("The analysis board is busy.")) from None
    stored = _stored(verdict, oriented, budget_ms)
    await offload(_cache_put, lane="request")(key, stored)
    return _answer(position, oriented, stored, cached=False)
