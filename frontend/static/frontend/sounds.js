// The pages' sounds: short files shipped with the site (sounds/*.wav, made by scripts/make_sounds.py),
// played at the volume of the preferences, or not at all with sound off. Silent until the page has had a
// user gesture (a tap, a click, a key), as browsers allow sound only after one.

import { prefs } from "./prefs.js";

/** @typedef {"move" | "turn" | "win" | "loss" | "draw" | "clock" | "notify"} SoundName */

let unlocked = false;
/** @type {Map<SoundName, HTMLAudioElement>} */
const loaded = new Map();

function unlock() {
  unlocked = true;
}
for (const kind of ["pointerdown", "keydown", "touchstart"]) {
  window.addEventListener(kind, unlock, { once: true, capture: true });
}

/** Whether a sound would play now (for the browser tests and the settings panel). */
export function canPlay() {
  const p = prefs();
  return unlocked && p.sound && p.volume > 0;
}

/**
 * Plays one of the site's sounds, if the preferences and the browser allow it now.
 * @param {SoundName} name
 */
export function playSound(name) {
  if (!canPlay()) return;
  let audio = loaded.get(name);
  if (!audio) {
    audio = new Audio(new URL(`./sounds/${name}.wav`, import.meta.url).href);
    loaded.set(name, audio);
  }
  audio.volume = prefs().volume / 100;
  audio.currentTime = 0;
  window.__sounds?.push(name);
  audio.play().catch(() => {});
}
