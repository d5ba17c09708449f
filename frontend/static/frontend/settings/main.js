// The settings panel, opened from the header on every page: the preferences (prefs.js), each change
// applied at once (here and on the other open pages) and kept for the player.

import { dialogWidget } from "../dialog.js";
import { $ } from "../dom.js";
import { loadPrefs, onPrefs, setPrefs } from "../prefs.js";
import { playSound } from "../sounds.js";

/**
 * @typedef {HTMLFormElement & {theme: RadioNodeList, sound: HTMLInputElement, volume: HTMLInputElement,
 *   confirm_move: HTMLInputElement, premove: HTMLInputElement, show_threats: HTMLInputElement,
 *   blind: HTMLInputElement, board: RadioNodeList}} SettingsForm the panel's form (_settings.html)
 */

const dialog = dialogWidget($("#settings", HTMLDialogElement));
const form = /** @type {SettingsForm} */ ($("#settings-form", HTMLFormElement));
const CHECKS = /** @type {const} */ (["sound", "confirm_move", "premove", "show_threats", "blind"]);

$("#settings-open").addEventListener("click", () => dialog.showModal());
$("#settings-close").addEventListener("click", () => dialog.close());

onPrefs((p) => {
  form.theme.value = p.theme;
  form.board.value = p.board;
  form.volume.value = String(p.volume);
  for (const name of CHECKS) form[name].checked = p[name];
  form.volume.disabled = !p.sound;
});

form.addEventListener("change", (ev) => {
  const el = /** @type {HTMLInputElement} */ (ev.target);
  const name = el.name;
  if (name === "theme" || name === "board") setPrefs({ [name]: el.value });
  else if (name === "volume") setPrefs({ volume: Number(el.value) }).then(() => playSound("move"));
  else if (CHECKS.includes(/** @type {any} */ (name))) setPrefs({ [name]: el.checked });
});

loadPrefs();
