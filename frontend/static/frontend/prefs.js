// The player's preferences on every page (docs/protocol.md, "Preferences"). The device keeps a copy
// (localStorage), so a page is drawn in the right theme before any request; the server's are read once
// the page loads (an account's follow it to every device). A change is kept on the device and sent to the
// server; the other open pages of this browser hear of it through the storage event and apply it at once.

import { ApiError, apiGet, apiPatch } from "./api.js";

/**
 * @typedef {object} Prefs
 * @property {"system" | "light" | "dark"} theme
 * @property {boolean} sound
 * @property {number} volume 0..100
 * @property {boolean} confirm_move the two-tap drop
 * @property {boolean} premove
 * @property {boolean} show_threats
 * @property {"3d" | "top"} board
 * @property {boolean} blind blind mode: the room's board in words, every move announced
 */

/** @type {Prefs} */
export const DEFAULTS = {
  theme: "system",
  sound: true,
  volume: 70,
  confirm_move: true,
  premove: false,
  show_threats: false,
  board: "3d",
  blind: false,
};
const KEY = "prefs";
const LOCAL_ONLY = "prefs-local"; // set while the device has no player: the server could not keep them
const DARK = "(prefers-color-scheme: dark)";

/** @returns {Partial<Prefs>} */
function stored() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    return {};
  }
}

/** @type {Prefs} */
let current = { ...DEFAULTS, ...stored() };
/** @type {Set<(p: Prefs) => void>} */
const listeners = new Set();

/** The preferences as this page applies them. */
export function prefs() {
  return current;
}

/**
 * Calls `fn` with the preferences now and after every change (from this page or another).
 * @param {(p: Prefs) => void} fn
 */
export function onPrefs(fn) {
  listeners.add(fn);
  fn(current);
}

/** The theme a page shows: the chosen one, or the system's. @param {Prefs} p @returns {"light" | "dark"} */
export function themeOf(p) {
  if (p.theme === "light" || p.theme === "dark") return p.theme;
  return window.matchMedia?.(DARK).matches ? "dark" : "light";
}

/** @param {Partial<Prefs>} next */
function apply(next) {
  current = { ...DEFAULTS, ...next };
  document.documentElement.dataset.theme = themeOf(current);
  for (const fn of listeners) fn(current);
}

/**
 * Changes some preferences: at once on this page (and the other open ones), then on the server.
 * @param {Partial<Prefs>} changes
 */
export async function setPrefs(changes) {
  const next = { ...current, ...changes };
  localStorage.setItem(KEY, JSON.stringify(next));
  apply(next);
  try {
    await apiPatch("/api/preferences", changes);
    localStorage.removeItem(LOCAL_ONLY);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) localStorage.setItem(LOCAL_ONLY, "1");
  }
}

/** Reads the server's preferences (the device's own, when the server could not keep them, are sent up). */
export async function loadPrefs() {
  try {
    if (localStorage.getItem(LOCAL_ONLY)) {
      await setPrefs(stored());
      return;
    }
    const server = await apiGet("/api/preferences");
    if (JSON.stringify(server) === JSON.stringify(current)) return;
    localStorage.setItem(KEY, JSON.stringify(server));
    apply(server);
  } catch {
    /* offline or no server: the device's copy stands */
  }
}

window.addEventListener("storage", (ev) => {
  if (ev.key === KEY) apply(stored());
});
window.matchMedia?.(DARK).addEventListener?.("change", () => apply(current));
apply(current);
