// The flat view of an arcade board (play.js's view interface): 2048's 4x4 as a grid of cells with tiles
// that slide, pop on a merge and grow in when new; a cube's board as its layers side by side (the replay of a
// cube run). CSS transitions animate; a board shown while one runs finishes it at once (finish()), so input
// never waits for an animation. Swipes on the board (pointer events, touch-action: none in arcade.css) play
// a move and never scroll the page.

import { gettext, pgettext } from "../../i18n.js";

/** @typedef {import("../play.js").ArcadeView} ArcadeView */
/** @typedef {import("../play.js").Change} Change */

const KEYS = /** @type {const} */ ([
  ["ArrowLeft", "a", "left", "←"],
  ["ArrowRight", "d", "right", "→"],
  ["ArrowUp", "w", "up", "↑"],
  ["ArrowDown", "s", "down", "↓"],
]);
const SLIDE_MS = 100;
const SWIPE_PX = 24;

/** The direction names, in the page's language. @param {string} dir */
export function directionWord(dir) {
  const words = {
    left: pgettext("direction", "Left"),
    right: pgettext("direction", "Right"),
    up: pgettext("direction", "Up"),
    down: pgettext("direction", "Down"),
    forward: pgettext("direction", "Forward"),
    backward: pgettext("direction", "Backward"),
  };
  return words[/** @type {keyof typeof words} */ (dir)] || dir;
}

/**
 * Where a cell is drawn: its grid (a cube's layer, the top one first) and its column and row there.
 * @param {number[]} shape @param {number} cell
 */
function place(shape, cell) {
  const n = shape[0];
  const x = cell % n;
  const y = Math.floor(cell / n) % n;
  if (shape.length === 2) return { grid: 0, col: x, row: y };
  const z = Math.floor(cell / (n * n));
  return { grid: n - 1 - z, col: x, row: n - 1 - y }; // the top layer first, its back row on top
}

/** @returns {ArcadeView & {finish: () => void}} */
export function flatView() {
  /** @type {number[]} */ let shape = [4, 4];
  /** @type {HTMLElement[]} */ let grids = [];
  /** @type {Map<number, HTMLElement>} */ let tiles = new Map();
  /** @type {HTMLElement[]} */ let dying = [];
  /** @type {ReturnType<typeof setTimeout> | undefined} */ let timer;
  /** @type {HTMLElement | null} */ let root = null;

  /** @param {number} cell @param {number} value @param {string} [born] */
  function tile(cell, value, born) {
    const el = document.createElement("div");
    el.className = `tile v${value > 2048 ? "big" : value}${born ? ` ${born}` : ""}`;
    el.textContent = String(value);
    el.dataset.value = String(value);
    if (value >= 1024) el.classList.add(value >= 16384 ? "d5" : "d4");
    put(el, cell);
    return el;
  }

  /** @param {HTMLElement} el @param {number} cell */
  function put(el, cell) {
    const at = place(shape, cell);
    el.style.setProperty("--x", String(at.col));
    el.style.setProperty("--y", String(at.row));
    el.dataset.cell = String(cell);
    if (el.parentElement !== grids[at.grid]) grids[at.grid].append(el);
  }

  /** Ends what is animating: the merged tiles gone, every tile where it belongs, no transition running. */
  function finish() {
    clearTimeout(timer);
    timer = undefined;
    for (const el of dying) el.remove();
    dying = [];
    if (!root) return;
    root.classList.add("snap");
    for (const el of tiles.values()) el.classList.remove("new", "pop");
    void root.offsetWidth; // the snap applies before the next transition starts
    root.classList.remove("snap");
  }

  /** @param {number[]} board */
  function redraw(board) {
    finish();
    for (const el of tiles.values()) el.remove();
    tiles = new Map();
    board.forEach((value, cell) => {
      if (value) tiles.set(cell, tile(cell, value));
    });
  }

  return {
    finish,

    mount(el, ctx) {
      root = el;
      shape = ctx.mode.shape;
      const n = shape[0];
      el.classList.add("arcade-flat", `side-${n}`);
      el.classList.toggle("layers", shape.length === 3);
      el.replaceChildren();
      grids = [];
      const layers = shape.length === 3 ? n : 1;
      for (let g = 0; g < layers; g += 1) {
        const grid = document.createElement("div");
        grid.className = "grid";
        grid.style.setProperty("--n", String(n));
        for (let i = 0; i < n * n; i += 1)
          grid.append(Object.assign(document.createElement("div"), { className: "cell" }));
        const wrap = document.createElement("div");
        wrap.className = "grid-wrap";
        if (layers > 1) {
          const label = document.createElement("p");
          label.className = "layer-name muted small";
          label.textContent = gettext("Layer %(z)s", { z: n - g });
          wrap.append(label);
        }
        wrap.append(grid);
        el.append(wrap);
        grids.push(grid);
      }
      tiles = new Map();
      if (ctx.play) swipes(el, ctx.play, (key) => this.direction(key));
    },

    show(board, change) {
      if (!change || (!change.tiles && !change.spawned)) {
        redraw(board);
        return;
      }
      if (change.tiles) {
        finish(); // a slide while one is animating: that one ends at once
        /** @type {Map<number, HTMLElement>} */ const next = new Map();
        for (const move of change.tiles) {
          const el = tiles.get(move.from);
          if (!el) continue;
          put(el, move.to);
          if (move.merged) dying.push(el);
          else next.set(move.to, el);
        }
        for (const cell of change.merged || []) next.set(cell, tile(cell, board[cell], "pop"));
        tiles = next;
        timer = setTimeout(finish, SLIDE_MS + 60);
      }
      for (const { cell } of change.spawned || []) {
        tiles.get(cell)?.remove();
        tiles.set(cell, tile(cell, board[cell], "new"));
      }
      // What the board says wins over what was animated (a tile the animation lost, or one left over).
      board.forEach((value, cell) => {
        const el = tiles.get(cell);
        if (value && (!el || el.dataset.value !== String(value))) {
          el?.remove();
          tiles.set(cell, tile(cell, value));
        } else if (!value && el) {
          el.remove();
          tiles.delete(cell);
        }
      });
    },

    direction(key) {
      const lower = key.length === 1 ? key.toLowerCase() : key;
      const found = KEYS.find(([arrow, letter]) => lower === arrow || lower === letter);
      return found ? found[2] : null;
    },

    keysHelp() {
      return KEYS.map(([arrow, letter, dir, symbol]) => ({
        key: arrow,
        keys: [symbol, letter.toUpperCase()],
        symbol,
        label: directionWord(dir),
      }));
    },
  };
}

/**
 * A swipe on `el` (a finger or a mouse drag of SWIPE_PX or more) plays the arrow key of its direction.
 * @param {HTMLElement} el @param {(dir: string) => void} play @param {(key: string) => string | null} direction
 */
export function swipes(el, play, direction) {
  /** @type {{x: number, y: number, id: number} | null} */ let start = null;
  el.addEventListener("pointerdown", (ev) => {
    start = { x: ev.clientX, y: ev.clientY, id: ev.pointerId };
  });
  el.addEventListener("pointerup", (ev) => {
    if (!start || start.id !== ev.pointerId) return;
    const dx = ev.clientX - start.x;
    const dy = ev.clientY - start.y;
    start = null;
    if (Math.max(Math.abs(dx), Math.abs(dy)) < SWIPE_PX) return;
    const key = Math.abs(dx) > Math.abs(dy) ? (dx < 0 ? "ArrowLeft" : "ArrowRight") : dy < 0 ? "ArrowUp" : "ArrowDown";
    const dir = direction(key);
    if (dir) play(dir);
  });
  el.addEventListener("pointercancel", () => {
    start = null;
  });
  // A finger on the board never scrolls the page (touch-action: none says so too, for the browsers that read it).
  el.addEventListener("touchmove", (ev) => ev.preventDefault(), { passive: false });
}
