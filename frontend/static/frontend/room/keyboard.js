// The room page's keyboard: the arrow keys walk the pegs as the top view shows them (turned with the 3D
// camera), Enter chooses, Escape clears the selection. keyAction is the model (pure); bindKeyboard wires
// it to the page.

import { isWatching } from "./state.js";

/** @typedef {import("./ctrl.js").RoomCtrl} RoomCtrl */

/**
 * @typedef {{kind: "select", peg: string} | {kind: "look", peg: string} | {kind: "choose", peg: string}
 *   | {kind: "clear"} | {kind: "none"}} KeyAction
 *   select: the peg becomes the selection; look: a spectator's focus moves (nothing is selected);
 *   choose: drop on the peg; clear: no selection
 */

/**
 * What a key press on the board means.
 * @param {object} at
 * @param {string} at.key the key's name (KeyboardEvent.key)
 * @param {string | null} at.selected the selected peg
 * @param {string | null} at.focused the top view's peg button the key was pressed on, if any
 * @param {string | null | undefined} at.roving the top view's roving focus
 * @param {boolean} at.watching the viewer has no seat
 * @param {(from: string, key: string) => string} step the peg one step from another on screen
 * @returns {KeyAction}
 */
export function keyAction({ key, selected, focused, roving, watching }, step) {
  if (key.startsWith("Arrow")) {
    const next = step(selected || focused || roving || "a1", key);
    return watching ? { kind: "look", peg: next } : { kind: "select", peg: next };
  }
  if (key === "Enter") {
    const peg = focused || selected;
    return peg ? { kind: "choose", peg } : { kind: "none" };
  }
  if (key === "Escape") return { kind: "clear" };
  return { kind: "none" };
}

/**
 * Listens for keys pressed on the page itself, the 3D board or a top view peg (not in a field or a link,
 * and without a modifier).
 * @param {RoomCtrl} ctrl
 */
export function bindKeyboard(ctrl) {
  document.addEventListener("keydown", (ev) => {
    const t = ev.target;
    if (!(t instanceof Element)) return;
    if (t.closest("input, select, textarea, a")) return;
    const onPegButton = t.closest("#topview .peg");
    const neutral = t === document.body || onPegButton || t.closest("#board3d");
    if (!neutral || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const { S, topview, board } = ctrl;
    if (ev.key.startsWith("Arrow") && board) topview.setAzimuth(board.azimuth());
    const focused = onPegButton instanceof HTMLElement ? onPegButton.dataset.peg || null : null;
    const action = keyAction(
      { key: ev.key, selected: S.selected, focused, roving: topview.roving, watching: isWatching(S) },
      (from, key) => topview.step(from, key),
    );
    switch (action.kind) {
      case "look":
        // A spectator reads the pegs one by one but selects nothing.
        ev.preventDefault();
        topview.roving = action.peg;
        topview.focus(action.peg);
        break;
      case "select":
        ev.preventDefault();
        S.selected = action.peg;
        ctrl.render();
        topview.focus(action.peg);
        break;
      case "choose":
        ev.preventDefault(); // no synthetic click on the focused button: one Enter, one choice
        ctrl.choose(action.peg);
        break;
      case "clear":
        S.selected = S.premove = null;
        ctrl.render();
        break;
      default:
        if (ev.key === "Enter") ev.preventDefault();
    }
  });
}
