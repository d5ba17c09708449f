import { describe, expect, it } from "vitest";
import {
  addMove,
  createTree,
  follow,
  mainLine,
  onMainLine,
  parseRecordParam,
  pathTo,
  remove,
} from "../static/frontend/analysis/tree.js";

describe("the analysis board's move tree", () => {
  it("keeps the main line and starts a variation from a position in the middle", () => {
    const tree = createTree(["a1", "b1", "c1", "d1"]);
    const line = mainLine(tree);
    expect(line.map((id) => pathTo(tree, id).at(-1))).toEqual(["a1", "b1", "c1", "d1"]);
    const variation = addMove(tree, line[1], "c3");
    expect(pathTo(tree, variation)).toEqual(["a1", "b1", "c3"]);
    expect(onMainLine(tree, variation)).toBe(false);
    expect(onMainLine(tree, line[3])).toBe(true);
    expect(mainLine(tree)).toEqual(line); // the main line is unchanged
    expect(addMove(tree, line[1], "c3")).toBe(variation); // the same move again is the same node
    expect(addMove(tree, line[1], "c1")).toBe(line[2]);
  });

  it("deletes a variation and what follows it, never the root", () => {
    const tree = createTree(["a1", "b1"]);
    const v = follow(tree, ["a1", "d4", "d4"]);
    const back = remove(tree, tree.nodes.get(v)?.parent ?? -1);
    expect(pathTo(tree, back)).toEqual(["a1"]);
    expect(tree.nodes.has(v)).toBe(false);
    expect(mainLine(tree).length).toBe(2);
    expect(remove(tree, 0)).toBe(0);
    expect(tree.nodes.has(0)).toBe(true);
  });

  it("reads the URL's record in any of its spellings", () => {
    expect(parseRecordParam("a1+b1,C3 d4")).toEqual(["a1", "b1", "c3", "d4"]);
    expect(parseRecordParam(null)).toEqual([]);
    expect(parseRecordParam("e9 a1")).toEqual(["a1"]);
  });
});
