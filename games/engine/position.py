"""Immutable game positions: the rules as a typed, validating API over the bitboards."""

from __future__ import annotations

from dataclasses import dataclass, field

from games.engine import bitboard as bb
from games.engine.errors import BadPeg, EngineError, gettext_noop
from games.engine.symmetry import Symmetry, canonical_form
from games.engine.values import Cell, Colour, Outcome, Peg, Status, Threat

_DRAW = Outcome(winner=None, line=None)
_PEGS: tuple[Peg, ...] = tuple(Peg)


class PegFull(EngineError):
    """A drop on a peg that already holds four beads; the position is unchanged."""

    code = "peg_full"

    def __init__(self, peg: Peg, *, ply: int | None = None) -> None:
        super().__init__(gettext_noop("Peg %(peg)s is full: it already holds 4 beads."), ply=ply,
                         params={"peg": str(peg)})
        self.peg = peg


class GameOver(EngineError):
    """A move attempted after the game has been won or drawn."""

    code = "game_over"

    def __init__(self, outcome: Outcome, *, ply: int | None = None) -> None:
        template = (gettext_noop("The game is over: it was a draw.") if outcome.winner is None
                    else gettext_noop("The game is over: red won.") if outcome.winner == "red"
                    else gettext_noop("The game is over: yellow won."))
        super().__init__(template, ply=ply)
        self.outcome = outcome


@dataclass(frozen=True, slots=True)
class Position:
    """A game so far: the moves played, the board they produced and, once over, the outcome.

    Build one with :meth:`initial`, :meth:`from_record` or :meth:`play`; the constructor is for
    the engine itself and does not check its arguments. Two positions are equal when their move
    sequences are equal (the board and outcome follow from the moves). ``str(position)`` is its
    record.
    """

    moves: tuple[Peg, ...] = ()
    """The pegs chosen so far, Red's first."""
    red: int = field(default=0, compare=False, repr=False)
    yellow: int = field(default=0, compare=False, repr=False)
    outcome: Outcome | None = field(default=None, compare=False, repr=False)
    """How the game ended, or None while it is being played."""

    @classmethod
    def initial(cls) -> Position:
        """The empty board, Red to move."""
        return _INITIAL

    @classmethod
    def from_record(cls, record: str) -> Position:
        """Replay a game record: peg names separated by whitespace, Red's move first.

        The empty (or all-whitespace) record is the empty board.

        Raises:
            BadPeg, PegFull, GameOver: the first move breaking a rule; its ``ply`` is the 0-based
                index of that move in the record.
        """
        position = _INITIAL
        for ply, name in enumerate(record.split()):
            try:
                peg = Peg.from_name(name)
            except BadPeg:
                raise BadPeg(name, ply=ply) from None
            position = position.play(peg)
        return position

    def record(self) -> str:
        """The game record: the move names separated by single spaces (empty for the empty board)."""
        return " ".join(peg.value for peg in self.moves)

    def __str__(self) -> str:
        return self.record()

    @property
    def ply(self) -> int:
        """Number of moves played (beads on the board)."""
        return len(self.moves)

    @property
    def status(self) -> Status:
        """``PLAYING`` until a line of four or a full board ends the game."""
        return Status.PLAYING if self.outcome is None else self.outcome.status

    @property
    def to_move(self) -> Colour | None:
        """The colour whose turn it is, or None once the game is over."""
        if self.outcome is not None:
            return None
        return Colour.YELLOW if len(self.moves) & 1 else Colour.RED

    @property
    def occupied(self) -> int:
        """Bitboard of all beads of both colours."""
        return self.red | self.yellow

    def bits(self, colour: Colour) -> int:
        """The bitboard of ``colour``'s beads (see :mod:`games.engine.bitboard` for the layout)."""
        return self.red if colour is Colour.RED else self.yellow

    def height(self, peg: Peg) -> int:
        """Number of beads on ``peg`` (0..4)."""
        return (self.occupied & bb.PEG_MASKS[peg.index]).bit_count()

    def landing_cell(self, peg: Peg) -> Cell | None:
        """The cell a bead dropped on ``peg`` would occupy, or None if the peg is full."""
        landing = bb.drop_bit(self.occupied, peg.index)
        return Cell.from_bit(landing.bit_length() - 1) if landing else None

    def colour_at(self, cell: Cell) -> Colour | None:
        """The colour of the bead in ``cell``, or None if it is empty."""
        if self.red >> cell.bit & 1:
            return Colour.RED
        if self.yellow >> cell.bit & 1:
            return Colour.YELLOW
        return None

    def legal_pegs(self) -> list[Peg]:
        """The pegs the player to move may choose, in peg-name order; empty once the game is over."""
        if self.outcome is not None:
            return []
        room = bb.legal_pegs_mask(self.occupied)
        return [peg for peg in _PEGS if room >> peg.index & 1]

    def play(self, peg: Peg) -> Position:
        """The position after the player to move drops a bead on ``peg``.

        Raises:
            GameOver: the game is already won or drawn.
            PegFull: ``peg`` already holds four beads.
            Both carry ``ply`` = this position's ply (the 0-based index of the refused move).
        """
        if self.outcome is not None:
            raise GameOver(self.outcome, ply=len(self.moves))
        occupied = self.red | self.yellow
        landing = bb.drop_bit(occupied, peg.index)
        if not landing:
            raise PegFull(peg, ply=len(self.moves))
        moves = (*self.moves, peg)
        bit = landing.bit_length() - 1
        red, yellow = self.red, self.yellow
        if len(self.moves) & 1:
            yellow |= landing
            mover, own = Colour.YELLOW, yellow
        else:
            red |= landing
            mover, own = Colour.RED, red
        outcome = None
        line = bb.winning_line_at(own, bit)
        if line:
            outcome = Outcome(winner=mover, line=_line_cells(line))
        elif len(moves) == bb.CELLS:
            outcome = _DRAW
        return Position(moves, red, yellow, outcome)

    def threats(self, colour: Colour) -> list[Threat]:
        """Empty cells that would complete a line of ``colour``, sorted by peg (peg-name order) then level.

        A threat is playable when its cell is the lowest empty cell of its peg. Threats are
        reported from the board alone, also after the game has ended.
        """
        occupied = self.red | self.yellow
        cells = bb.threat_cells(self.bits(colour), occupied)
        playable = bb.playable_cells(occupied)
        threats = [Threat(colour, Cell.from_bit(bit), bool(playable >> bit & 1)) for bit in bb.iter_bits(cells)]
        threats.sort(key=lambda threat: threat.cell)
        return threats

    def canonical_key(self) -> int:
        """A key shared by exactly this board and its symmetric images (see :func:`canonical_form`)."""
        return canonical_form(self.red, self.yellow)[0]

    def canonical_symmetry(self) -> Symmetry:
        """A symmetry mapping this board onto its canonical image."""
        return canonical_form(self.red, self.yellow)[1]

    def transformed(self, symmetry: Symmetry) -> Position:
        """This game with every move replaced by its image under ``symmetry``.

        The winner is the same and the winning line is the image of the original one, except that
        when the last bead completed several lines the image may report another of them.
        """
        try:
            return Position.from_record(" ".join(symmetry.apply_peg(peg).value for peg in self.moves))
        except EngineError as error:  # pragma: no cover - symmetries preserve legality
            raise AssertionError("a symmetric image of a legal game must be legal") from error


def _line_cells(line: int) -> tuple[Cell, Cell, Cell, Cell]:
    return _LINE_CELLS[line]


def _sorted_cells(line: int) -> tuple[Cell, Cell, Cell, Cell]:
    first, second, third, fourth = sorted(Cell.from_bit(bit) for bit in bb.iter_bits(line))
    return (first, second, third, fourth)


_LINE_CELLS: dict[int, tuple[Cell, Cell, Cell, Cell]] = {line: _sorted_cells(line) for line in bb.LINES}


_INITIAL = Position()


def transform_position(symmetry: Symmetry, position: Position) -> Position:
    """The image of ``position`` under ``symmetry`` (see :meth:`Position.transformed`)."""
    return position.transformed(symmetry)
