// The accessible top view: 16 buttons "Peg a1" ... "Peg d4", laid out as seen from above with the
// camera's quarter turn, so the arrow keys and the picture agree with the 3D view.

import { colourWord, PEGS, parsePeg, SIZE } from "../game.js";
import { gettext, listText, ngettext } from "../i18n.js";

const QUARTER = Math.PI / 2;

/**
 * Grid place {gc, gr} (gr 0 = top) of a peg when the camera has turned `quarter` quarter turns.
 * @param {string} peg
 * @param {number} quarter 0..3
 */
export function gridPlace(peg, quarter) {
  const place = parsePeg(peg);
  if (!place) throw new RangeError(`not a peg: ${peg}`);
  const { col, row } = place;
  const x = col - 1.5;
  const z = 1.5 - row;
  const t = quarter * QUARTER;
  const sx = x * Math.cos(t) - z * Math.sin(t);
  const sy = -x * Math.sin(t) - z * Math.cos(t);
  return { gc: Math.round(sx + 1.5) + 0, gr: Math.round(1.5 - sy) + 0 }; // + 0: no -0
}

/** The quarter turn (0..3) nearest a camera azimuth in radians. @param {number} azimuth */
export function quarterOf(azimuth) {
  return ((Math.round(azimuth / QUARTER) % 4) + 4) % 4;
}

/** @type {Record<string, [number, number]>} */
const DIRS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/**
 * The peg one step from `peg` in a screen direction (an arrow key name) on the grid turned `quarter`
 * quarter turns, or `peg` itself at the edge or for another key (a1 when there is no peg yet).
 * @param {string | null} peg
 * @param {string} key
 * @param {number} quarter
 * @returns {string}
 */
export function stepPeg(peg, key, quarter) {
  const d = DIRS[key];
  if (!d) return peg || "a1";
  const from = gridPlace(peg || "a1", quarter);
  const gc = from.gc + d[0];
  const gr = from.gr + d[1];
  if (gc < 0 || gc >= SIZE || gr < 0 || gr >= SIZE) return peg || "a1";
  return (
    PEGS.find((p) => {
      const g = gridPlace(p, quarter);
      return g.gc === gc && g.gr === gr;
    }) ||
    peg ||
    "a1"
  );
}

/**
 * @typedef {object} TopViewState
 * @property {Record<string, string[]>} stacks each peg's beads, bottom up
 * @property {{peg: string, level: number} | null} [last]
 * @property {Array<{peg: string, level: number}> | null} [line]
 * @property {string | null} [selected]
 * @property {string | null} [ghost] the colour of the bead a drop on the selected peg would place
 * @property {string | null} [cross]
 * @property {boolean} [canMove]
 * @property {boolean} [readOnly] the viewer only watches (the pegs still read out their beads)
 */

export class TopView {
  /**
   * @param {HTMLElement} container
   * @param {{onSelect?: (peg: string) => void}} opts
   */
  constructor(container, opts = {}) {
    this.container = container;
    this.opts = opts;
    this.quarter = 0;
    /** @type {Record<string, HTMLButtonElement>} */
    this.buttons = {};
    /** @type {TopViewState} */
    this.state = { stacks: {}, selected: null };
    /** @type {string | undefined} the peg that takes the tab stop (roving tabindex) */
    this.roving = undefined;
    container.classList.add("topview");
    for (const peg of PEGS) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "peg";
      b.dataset.peg = peg;
      b.setAttribute("aria-label", gettext("Peg %(peg)s", { peg }));
      b.tabIndex = peg === "a1" ? 0 : -1;
      const descId = `peg-desc-${container.id || "tv"}-${peg}`;
      b.innerHTML =
        `<span class="peg-name">${peg}</span>` +
        `<span class="stack" aria-hidden="true">${'<i class="dot"></i>'.repeat(SIZE)}</span>` +
        `<span class="count" id="${descId}"></span>` +
        `<span class="x" aria-hidden="true">✕</span>`;
      b.setAttribute("aria-describedby", descId);
      b.addEventListener("click", () => this.opts.onSelect?.(peg));
      container.appendChild(b);
      this.buttons[peg] = b;
    }
    this.layout();
  }

  /** @param {number} azimuth */
  setAzimuth(azimuth) {
    const q = quarterOf(azimuth);
    if (q === this.quarter) return;
    this.quarter = q;
    this.layout();
  }

  layout() {
    for (const peg of PEGS) {
      const { gc, gr } = gridPlace(peg, this.quarter);
      const b = this.buttons[peg];
      b.style.gridColumn = String(gc + 1);
      b.style.gridRow = String(gr + 1);
      b.style.order = String(gr * SIZE + gc); // DOM focus order is unchanged; reading order follows the grid
    }
  }

  /**
   * The peg one step from `peg` in a screen direction (an arrow key name), or `peg` at the edge.
   * @param {string} peg
   * @param {string} key
   */
  step(peg, key) {
    return stepPeg(peg, key, this.quarter);
  }

  /** @param {string} peg */
  focus(peg) {
    this.buttons[peg]?.focus();
  }

  /** @param {TopViewState} s */
  update(s) {
    this.state = s;
    this.container.classList.toggle("read-only", !!s.readOnly);
    const lineSet = new Set((s.line || []).map((c) => c.peg));
    const focusPeg = s.selected || (this.roving && PEGS.includes(this.roving) ? this.roving : "a1");
    this.roving = focusPeg;
    for (const peg of PEGS) {
      const b = this.buttons[peg];
      const stack = s.stacks[peg] || [];
      const dots = b.querySelectorAll(".dot");
      // Dots run bottom-up: the last dot element is the bottom level.
      for (let level = 1; level <= SIZE; level++) {
        const dot = dots[SIZE - level];
        const colour = stack[level - 1] || "";
        const ghost = !colour && peg === s.selected && level === stack.length + 1 && s.ghost ? `ghost ${s.ghost}` : "";
        const isLast = s.last && s.last.peg === peg && s.last.level === level;
        const onLine = (s.line || []).some((c) => c.peg === peg && c.level === level);
        dot.className = `dot ${colour} ${ghost} ${isLast ? "last" : ""} ${onLine ? "win" : ""}`
          .replace(/\s+/g, " ")
          .trim();
      }
      const n = stack.length;
      const beads = { beads: listText(stack.map(colourWord)) };
      const desc =
        n === 0
          ? gettext("empty")
          : n === SIZE
            ? gettext("%(n)s beads: %(beads)s (full)", { n, ...beads })
            : ngettext("%(n)s bead: %(beads)s", "%(n)s beads: %(beads)s", n, beads);
      const count = b.querySelector(".count");
      if (count) count.textContent = desc;
      b.title = gettext("Peg %(peg)s: %(description)s", { peg, description: desc });
      b.classList.toggle("full", n >= SIZE);
      b.classList.toggle("selected", peg === s.selected);
      b.classList.toggle("last", !!(s.last && s.last.peg === peg));
      b.classList.toggle("win", lineSet.has(peg));
      b.classList.toggle("crossed", peg === s.cross);
      b.classList.toggle("can-move", !!s.canMove);
      b.setAttribute("aria-pressed", peg === s.selected ? "true" : "false");
      if (s.readOnly) b.setAttribute("aria-disabled", "true");
      else b.removeAttribute("aria-disabled");
      b.tabIndex = peg === focusPeg ? 0 : -1;
    }
  }
}
