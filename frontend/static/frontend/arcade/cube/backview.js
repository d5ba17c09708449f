// The cube's back-view window (ARCADE.md): a square over the main view where a fixed camera on the far side
// draws the same cube. The player drags it by its body and resizes it by its corner, with a mouse or a
// finger; where it stands and its size are kept on the device (localStorage), as fractions of the view, so
// that they survive a reload and a turned phone. The window only says where it is: the view draws into it.

import { pgettext } from "../../i18n.js";

const KEY = "arcade-cube-backview";
export const MIN_SIZE = 72; // px: the smallest window
const MARGIN = 4; // px kept between the window and the view's edge

/** @typedef {{x: number, y: number, size: number}} Place the window's top-left corner and side, in px */
/** @typedef {{x: number, y: number, size: number}} Kept the same as fractions: of the width, the height, the short side */

/**
 * The window's first place on a view of w × h: a third of the short side (at most 220 px; less on a phone), in
 * the top right.
 * @param {number} w @param {number} h
 * @returns {Place}
 */
export function defaultPlace(w, h) {
  const size = Math.round(Math.min(220, Math.max(MIN_SIZE, Math.min(w, h) * (w < 520 ? 0.3 : 0.36))));
  return { x: w - size - 8, y: 8, size };
}

/**
 * A side made to fit a view of w × h: at least MIN_SIZE (less only on a view smaller than that), at most
 * three quarters of the view's short side.
 * @param {number} size @param {number} w @param {number} h
 */
export function fitSize(size, w, h) {
  const short = Math.max(1, Math.min(w, h) - 2 * MARGIN);
  const lo = Math.min(MIN_SIZE, short);
  const hi = Math.max(lo, Math.round(short * 0.75));
  return Math.round(Math.min(hi, Math.max(lo, Number.isFinite(size) ? size : lo)));
}

/**
 * A place made to fit a view of w × h: its side fitted (fitSize), the window wholly inside the view.
 * @param {Place} place @param {number} w @param {number} h
 * @returns {Place}
 */
export function fitPlace(place, w, h) {
  const size = fitSize(place.size, w, h);
  /** @type {(v: number, hi: number) => number} */
  const clamp = (v, hi) => Math.round(Math.min(Math.max(MARGIN, v), Math.max(MARGIN, hi)));
  return { x: clamp(place.x, w - size - MARGIN), y: clamp(place.y, h - size - MARGIN), size };
}

/** @param {Place} place @param {number} w @param {number} h @returns {Kept} */
export function toKept(place, w, h) {
  return { x: place.x / w, y: place.y / h, size: place.size / Math.min(w, h) };
}

/** @param {Kept} kept @param {number} w @param {number} h @returns {Place} */
export function fromKept(kept, w, h) {
  return fitPlace({ x: kept.x * w, y: kept.y * h, size: kept.size * Math.min(w, h) }, w, h);
}

/** @returns {Kept | null} the place kept on this device, if any */
function readKept() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) || "null");
    const ok = kept && ["x", "y", "size"].every((k) => Number.isFinite(kept[k]) && kept[k] >= 0 && kept[k] <= 1);
    return ok ? kept : null;
  } catch {
    return null;
  }
}

/** The back-view window on a view element (positioned: the window is laid over it). */
export class BackView {
  /**
   * @param {HTMLElement} host the element the window stands in (the main view's)
   * @param {() => void} onChange the window moved or changed size (the view draws again)
   * @param {() => void} [onRest] it was let go where it now stays (the view fits the cube around it)
   */
  constructor(host, onChange, onRest = () => {}) {
    this.host = host;
    this.onChange = onChange;
    this.onRest = onRest;
    this.el = document.createElement("div");
    this.el.className = "cube-backview";
    this.el.setAttribute("aria-hidden", "true"); // a picture: the board in words says the same
    const label = document.createElement("span");
    label.className = "cube-backview-label";
    label.textContent = pgettext("3D 2048", "back view");
    this.handle = document.createElement("span");
    this.handle.className = "cube-backview-resize";
    this.el.append(label, this.handle);
    host.append(this.el);
    const kept = readKept();
    this.kept = kept;
    /** @type {Place} */
    this.place = { x: 0, y: 0, size: 0 };
    this.layout();
    this.bindPointer();
  }

  /** The place, fitted to the host's size now (after a resize too). */
  layout() {
    const w = this.host.clientWidth;
    const h = this.host.clientHeight;
    this.place = this.kept ? fromKept(this.kept, w, h) : fitPlace(defaultPlace(w, h), w, h);
    this.apply();
  }

  apply() {
    const { x, y, size } = this.place;
    Object.assign(this.el.style, { left: `${x}px`, top: `${y}px`, width: `${size}px`, height: `${size}px` });
    this.onChange();
  }

  /** Where the view draws the far camera: the window in the host's pixels. */
  rect() {
    const { x, y, size } = this.place;
    return { x, y, w: size, h: size };
  }

  /**
   * What the main view keeps its cube clear of: the window's corner of the view up to the top right when
   * it stands in the top right quarter (where it starts), else nothing (the player put it over the cube).
   */
  corner() {
    const { x, y, size } = this.place;
    const w = this.host.clientWidth;
    const h = this.host.clientHeight;
    if (x + size / 2 < w / 2 || y + size / 2 > h / 2) return null;
    return { x, y: 0, w: w - x, h: y + size };
  }

  keep() {
    const w = this.host.clientWidth;
    const h = this.host.clientHeight;
    this.kept = toKept(this.place, w, h);
    try {
      localStorage.setItem(KEY, JSON.stringify(this.kept));
    } catch {
      // private browsing: the window still moves, for this visit
    }
  }

  bindPointer() {
    /** @type {{id: number, x: number, y: number, from: Place, resize: boolean} | null} */
    let grab = null;
    this.el.addEventListener("pointerdown", (ev) => {
      ev.preventDefault();
      ev.stopPropagation(); // not a swipe nor a turn of the main view
      this.el.setPointerCapture(ev.pointerId);
      grab = {
        id: ev.pointerId,
        x: ev.clientX,
        y: ev.clientY,
        from: { ...this.place },
        resize: ev.target === this.handle,
      };
      this.el.classList.add("grabbed");
    });
    this.el.addEventListener("pointermove", (ev) => {
      if (!grab || grab.id !== ev.pointerId) return;
      const dx = ev.clientX - grab.x;
      const dy = ev.clientY - grab.y;
      const { from } = grab;
      const w = this.host.clientWidth;
      const h = this.host.clientHeight;
      // The resize corner is the bottom left one (the window starts in the top right): the right edge stays.
      const size = grab.resize ? fitSize(from.size + Math.max(-dx, dy), w, h) : from.size;
      const next = grab.resize
        ? { x: from.x + from.size - size, y: from.y, size }
        : { x: from.x + dx, y: from.y + dy, size };
      this.place = fitPlace(next, w, h);
      this.apply();
    });
    /** @param {PointerEvent} ev */
    const release = (ev) => {
      if (!grab || grab.id !== ev.pointerId) return;
      grab = null;
      this.el.classList.remove("grabbed");
      this.keep();
      this.onRest();
    };
    this.el.addEventListener("pointerup", release);
    this.el.addEventListener("pointercancel", release);
    this.el.addEventListener("touchmove", (ev) => ev.preventDefault(), { passive: false });
  }
}
