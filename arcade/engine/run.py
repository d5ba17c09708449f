"""A run: its position, score, status and undo slot, and the moves, undos, continues and ends that change it.

Every function returns a new :class:`RunState` (they are immutable) or raises an :class:`IllegalMove`
leaving the run as it was. Randomness is the caller's: :func:`play` deals the spawns from the ``rng`` it is
given, :func:`play_dealt` places spawns dealt before (a replay's, from the record).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from arcade.engine.board import Board, board_from, has_move, top_tile
from arcade.engine.errors import BadSpawn, NotPlaying, NotWon, NoUndo, RunEnded, UndoSpent, gettext_noop
from arcade.engine.modes import Mode
from arcade.engine.slide import Slide, slide
from arcade.engine.spawn import OPENING_TILES, RandomSource, Spawn, deal_after, deal_opening, place_spawns, spawn_count


class Status(StrEnum):
    """Where a run stands; its value is its name in the API."""

    PLAYING = "playing"
    """Moves are played."""
    WON = "won"
    """A cube run reached its target: it waits for the player to continue or end it."""
    OVER = "over"
    """No move is left (an undo, on the cubes, can still take the last move back)."""
    ENDED = "ended"
    """Ended by the player or at the move cap: nothing more happens to it."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The position an undo restores: the run just before the move that filled the slot."""

    board: Board
    """The tiles."""
    score: int
    """The score."""
    moves: int
    """The moves counted."""
    status: Status
    """The status (``playing``)."""
    continued: bool
    """Whether the player had continued past the target."""


@dataclass(frozen=True, slots=True)
class RunState:
    """A run at one point. Build one with :func:`open_run` or :func:`start_run`."""

    mode: Mode
    """Its mode."""
    board: Board
    """The tiles."""
    move_cap: int
    """The run ends after this many moves played (undone ones included)."""
    score: int = 0
    """The score: the sum of the tiles every counted move's merges made."""
    moves: int = 0
    """The moves counted: an undo takes its move back off."""
    played: int = 0
    """Every move applied, undone ones included: what the cap counts."""
    status: Status = Status.PLAYING
    """Where the run stands."""
    continued: bool = False
    """Whether the player continued past a win (the target is not checked again)."""
    reached_target: bool = False
    """Whether the target tile was ever on the board (a milestone on ``classic``); an undo leaves it."""
    slot: Snapshot | None = None
    """The undo slot: the position from before the last move, or None (no undo in the mode, or spent)."""
    peak_score: int = 0
    """The highest score the run has reached: what ranks (an undo never lowers it)."""
    peak_tile: int = 0
    """The largest tile the run has had on its board (an undo never lowers it)."""

    @property
    def can_undo(self) -> bool:
        """Whether :func:`undo` would be accepted."""
        return self.slot is not None and self.status is not Status.ENDED

    @property
    def is_final(self) -> bool:
        """Whether nothing can change the run any more: ended, or over with no undo to take."""
        return self.status is Status.ENDED or (self.status is Status.OVER and not self.can_undo)


@dataclass(frozen=True, slots=True)
class MoveResult:
    """What a move did."""

    state: RunState
    """The run after the move (the same run when the move moved nothing)."""
    moved: bool
    """Whether any tile changed cell; a move that moved nothing is not a move and changed nothing."""
    gained: int
    """The score the move's merges made."""
    spawned: tuple[Spawn, ...]
    """The new tiles, in the order they were placed (none when nothing moved)."""
    merged: tuple[int, ...]
    """The cells holding a tile made by a merge of this move."""


def open_run(*, mode: Mode, opening: Sequence[Spawn], move_cap: int | None = None) -> RunState:
    """A run of ``mode`` whose board holds the two ``opening`` tiles.

    Raises:
        BadSpawn: not two tiles, or not on two distinct cells of the board, or a value not 2 or 4.
        ValueError: ``move_cap`` below 1 (the caller's mistake, not the player's).
    """
    if len(opening) != OPENING_TILES:
        raise BadSpawn(gettext_noop("A run opens with two tiles."))
    board = place_spawns((0,) * mode.shape.cells, opening)
    return RunState(mode=mode, board=board, move_cap=_cap(mode, move_cap), peak_tile=top_tile(board))


def run_at(*, mode: Mode, board: Sequence[int], score: int = 0, continued: bool = False,
           move_cap: int | None = None) -> RunState:
    """A run of ``mode`` at ``board`` with ``score``, as if its moves had been played (no move counted, the
    undo slot empty): a position for tests and the shared vectors. Its status follows from the board: won
    at the target (cubes, unless ``continued``), over when no move is left, else playing.

    Raises:
        BadBoard: not a board of the mode.
    """
    cells = board_from(board, shape=mode.shape)
    state = RunState(mode=mode, board=cells, move_cap=_cap(mode, move_cap), score=score, continued=continued,
                     reached_target=top_tile(cells) >= mode.target, peak_score=score, peak_tile=top_tile(cells))
    return replace(state, status=_status(state, cells, state.played))


def start_run(*, mode: Mode, rng: RandomSource, move_cap: int | None = None) -> RunState:
    """A new run of ``mode``, its two opening tiles dealt from ``rng``."""
    return open_run(mode=mode, opening=deal_opening(mode=mode, rng=rng), move_cap=move_cap)


def play(state: RunState, direction: str, *, rng: RandomSource) -> MoveResult:
    """Play ``direction``, the spawns dealt from ``rng`` (nothing is drawn when the move moves nothing).

    Raises:
        BadDirection: not one of the board's directions.
        NotPlaying: the run is won (continue it first), over or ended.
    """
    slid = _slide(state, direction)
    return _apply(state, slid, deal_after(slid, mode=state.mode, rng=rng))


def play_dealt(state: RunState, direction: str, *, spawns: Sequence[Spawn]) -> MoveResult:
    """Play ``direction`` with ``spawns`` dealt before (a replay's): no spawn when the move moves nothing.

    Raises:
        BadDirection: not one of the board's directions.
        NotPlaying: the run is won (continue it first), over or ended.
        BadSpawn: not as many spawns as the move makes, or one not on an empty cell, or not a 2 or a 4.
    """
    slid = _slide(state, direction)
    count = spawn_count(slid.board, mode=state.mode) if slid.moved else 0
    if len(spawns) != count:
        raise BadSpawn(gettext_noop("This move makes %(count)d new tiles."), params={"count": count})
    return _apply(state, slid, tuple(spawns))


def undo(state: RunState) -> RunState:
    """The run as it was before its last move (tiles, score, moves counted, status); the slot is spent.

    The peak score, the peak tile, the moves played and the target's milestone stay: the best never goes down.

    Raises:
        NoUndo: the mode has no undo. RunEnded: the run has ended. UndoSpent: the slot is empty.
    """
    if not state.mode.undo:
        raise NoUndo()
    if state.status is Status.ENDED:
        raise RunEnded()
    if state.slot is None:
        raise UndoSpent()
    shot = state.slot
    return replace(state, board=shot.board, score=shot.score, moves=shot.moves, status=shot.status,
                   continued=shot.continued, slot=None)


def continue_run(state: RunState) -> RunState:
    """A won run played on: ``playing`` again, or ``over`` at once when no move is left.

    Raises:
        RunEnded: the run has ended. NotWon: the run is not waiting at its target.
    """
    if state.status is Status.ENDED:
        raise RunEnded()
    if state.status is not Status.WON:
        raise NotWon()
    status = Status.PLAYING if has_move(state.board, shape=state.mode.shape) else Status.OVER
    return replace(state, status=status, continued=True)


def end_run(state: RunState) -> RunState:
    """The run ended by the player: it keeps its score and peak, and nothing more happens to it.

    Raises:
        RunEnded: it has ended already.
    """
    if state.status is Status.ENDED:
        raise RunEnded()
    return replace(state, status=Status.ENDED)


def _slide(state: RunState, direction: str) -> Slide:
    shape = state.mode.shape
    chosen = shape.direction(direction)
    if state.status is not Status.PLAYING:
        raise NotPlaying(state.status.value)
    return slide(state.board, shape=shape, direction=chosen)


def _cap(mode: Mode, move_cap: int | None) -> int:
    cap = mode.move_cap if move_cap is None else move_cap
    if cap < 1:
        raise ValueError(f"move_cap must be 1 or more, not {cap}")
    return cap


def _status(state: RunState, board: Board, played: int) -> Status:
    """The status of ``state``'s run reaching ``board`` after ``played`` moves."""
    mode = state.mode
    if played >= state.move_cap:
        return Status.ENDED
    # The target is checked before "no move left": a move that does both is a win.
    if mode.target_wins and not state.continued and top_tile(board) >= mode.target:
        return Status.WON
    return Status.PLAYING if has_move(board, shape=mode.shape) else Status.OVER


def _apply(state: RunState, slid: Slide, spawns: tuple[Spawn, ...]) -> MoveResult:
    if not slid.moved:
        return MoveResult(state=state, moved=False, gained=0, spawned=(), merged=())
    mode = state.mode
    board = place_spawns(slid.board, spawns)
    top = top_tile(board)
    played = state.played + 1
    status = _status(state, board, played)
    score = state.score + slid.gained
    slot = (Snapshot(board=state.board, score=state.score, moves=state.moves, status=state.status,
                     continued=state.continued) if mode.undo else None)
    after = replace(
        state, board=board, score=score, moves=state.moves + 1, played=played, status=status, slot=slot,
        reached_target=state.reached_target or top >= mode.target,
        peak_score=max(state.peak_score, score), peak_tile=max(state.peak_tile, top),
    )
    return MoveResult(state=after, moved=True, gained=slid.gained, spawned=spawns, merged=slid.merged)

