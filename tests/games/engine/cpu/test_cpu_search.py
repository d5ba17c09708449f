"""The search internals against slow, obvious versions: incremental nodes, canonical keys, the solver."""

from __future__ import annotations

import functools
import itertools
import random
import time

import pytest

from games.engine import Colour, Peg, Position, canonical_form, threat_cells
from games.engine.cpu.evaluation import INFINITY, MATE_BOUND, Node, Weights, evaluate, safe_moves
from games.engine.cpu.search import Searcher
from games.engine.cpu.tables import canonical
from tests.records import DRAWN_RECORD

WEIGHTS = Weights()


def node_of(position: Position) -> Node:
    assert position.to_move is not None
    own, opp = position.bits(position.to_move), position.bits(position.to_move.other)
    return Node.from_bits(own, opp, WEIGHTS)


def random_game(rng: random.Random) -> list[Position]:
    positions = [Position.initial()]
    while positions[-1].to_move is not None:
        positions.append(positions[-1].play(rng.choice(positions[-1].legal_pegs())))
    return positions


def test_incremental_children_match_a_full_rescan() -> None:
    rng = random.Random(11)
    for _ in range(30):
        positions = random_game(rng)
        for before, after in itertools.pairwise(positions):
            if after.to_move is None:
                break
            landing = before.landing_cell(after.moves[-1])
            assert landing is not None
            assert node_of(before).child(landing.bit, WEIGHTS) == node_of(after)


def test_node_threats_are_the_engine_threats() -> None:
    rng = random.Random(12)
    for position in random_game(rng)[:-1]:
        node = node_of(position)
        assert node.t_own == threat_cells(node.own, node.occupied)
        assert node.t_opp == threat_cells(node.opp, node.occupied)


def test_canonical_matches_the_engine() -> None:
    rng = random.Random(13)
    for _ in range(300):
        own = rng.getrandbits(64)
        opp = rng.getrandbits(64) & ~own
        key, symmetry = canonical_form(own, opp)
        assert canonical(own, opp) == (key, int(symmetry))


def test_line_evaluation_changes_sign_with_the_side_to_move() -> None:
    node = node_of(Position.from_record("b2 c3 b2 c3 a1 d4 a1"))
    lines_only = Weights(threat_good=0, threat_bad=0, stacked=0)
    mine = evaluate(Node.from_bits(node.own, node.opp, lines_only), lines_only)
    theirs = evaluate(Node.from_bits(node.opp, node.own, lines_only), lines_only)
    assert mine == -theirs != 0


def test_safe_moves_shortcuts() -> None:
    assert safe_moves(node_of(Position.from_record("a1 a3 b1 b3 c1 c3")))[1] == "win"
    assert safe_moves(node_of(Position.from_record("a1 a3 b1 b3 c1")))[1] == "block"
    assert safe_moves(node_of(Position.initial())) == (0xFFFF, "safe")


@functools.cache
def brute_force(record: str) -> int:
    """1 / 0 / -1: the game-theoretic value for the side to move, by plain minimax over Position."""
    position = Position.from_record(record)
    best = -1
    for peg in position.legal_pegs():
        after = position.play(peg)
        if after.outcome is not None:
            value = 0 if after.outcome.winner is None else 1
        else:
            value = -brute_force(after.record())
        best = max(best, value)
        if best == 1:
            break
    return best


ENDGAMES = 16


@functools.cache
def endgames() -> list[Position]:
    """Unfinished positions with 4 to 7 empty cells: prefixes of a drawn game, and of win-avoiding random games.
    Made once, when a test first wants them (not while every worker collects: 0.2 s of CPU each)."""
    moves = DRAWN_RECORD.split()
    positions = [Position.from_record(" ".join(moves[:ply])) for ply in range(57, 61)]
    rng = random.Random(14)
    while len(positions) < ENDGAMES:
        position = Position.initial()
        while position.to_move is not None and position.ply < 58:
            quiet = [peg for peg in position.legal_pegs() if position.play(peg).outcome is None]
            position = position.play(rng.choice(quiet or position.legal_pegs()))
        if position.to_move is not None:
            positions.append(position)
    return positions


@pytest.mark.parametrize("index", range(ENDGAMES), ids=lambda index: f"endgame{index}")
def test_solver_and_full_depth_search_agree_with_brute_force(index: int) -> None:
    position = endgames()[index]
    expected = brute_force(position.record())
    node = node_of(position)
    searcher = Searcher(WEIGHTS, deadline=time.perf_counter() + 60)
    assert searcher.solve(node.own, node.opp, node.t_own, node.t_opp, -1, 1) == expected
    empties = 64 - position.ply
    value = searcher.negamax(node.own, node.opp, node.t_own, node.t_opp, node.score, empties, -INFINITY, INFINITY, 0)
    assert (value > MATE_BOUND) - (value < -MATE_BOUND) == expected


def test_red_moves_first_so_node_parity_follows_the_bead_count() -> None:
    position = Position.from_record("a1")
    assert position.to_move is Colour.YELLOW
    node = node_of(position)
    assert node.opp == Position.from_record("a1").red == 1 << Peg.A1.index
