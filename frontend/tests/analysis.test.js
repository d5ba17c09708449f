import { describe, expect, it } from "vitest";
import { positionText, provedMoves, verdictText } from "../static/frontend/analysis/view.js";

const answer = (/** @type {object} */ fields) => ({
  ply: 7,
  to_move: null,
  winner: null,
  line: null,
  moves: [],
  best: [],
  threats: [],
  verdict: "loss",
  plies: 0,
  budget_ms: 300,
  ...fields,
});

describe("the analysis board's words on a position", () => {
  it("says who is to move, or once over who won or that it is a draw, with the moves played", () => {
    expect(positionText(0, null)).toBe("Red to move · 0 moves played");
    expect(positionText(1, null)).toBe("Yellow to move · 1 move played");
    expect(positionText(7, answer({ winner: "red" }))).toBe("Red won · 7 moves played");
    expect(positionText(64, answer({ ply: 64, verdict: "draw", plies: null }))).toBe("Draw · 64 moves played");
    // An answer for another position (the board moved on) says nothing of this one.
    expect(positionText(6, answer({ winner: "red" }))).toBe("Red to move · 6 moves played");
  });

  it("says how a finished game ended, not whose move it would be", () => {
    expect(verdictText(answer({ winner: "red" }))).toBe("Red wins with four in a row.");
    expect(verdictText(answer({ verdict: "draw", plies: null }))).toBe("The board is full with no four in a row.");
    const open = answer({ to_move: "yellow", verdict: "unknown", plies: null, best: ["b2"] });
    expect(verdictText(open)).toBe("No forced result found within 300 ms: the engine would play b2.");
  });

  it("lists only the moves proved to win, draw or lose, grouped, the best for the side to move first", () => {
    const moves = [
      { peg: "a1", verdict: "unknown", plies: null },
      { peg: "b1", verdict: "loss", plies: 2 },
      { peg: "c1", verdict: "loss", plies: 6 },
      { peg: "d1", verdict: "draw", plies: null },
      { peg: "a2", verdict: "win", plies: 5 },
      { peg: "b2", verdict: "win", plies: 3 },
      { peg: "c2", verdict: "loss", plies: 2 },
    ];
    expect(provedMoves(answer({ to_move: "red", moves }))).toEqual([
      { verdict: "win", plies: 3, pegs: ["b2"] },
      { verdict: "win", plies: 5, pegs: ["a2"] },
      { verdict: "draw", plies: null, pegs: ["d1"] },
      { verdict: "loss", plies: 6, pegs: ["c1"] },
      { verdict: "loss", plies: 2, pegs: ["b1", "c2"] },
    ]);
    expect(provedMoves(answer({ to_move: "red", moves: [{ peg: "a1", verdict: "unknown", plies: null }] }))).toEqual(
      [],
    );
  });
});
