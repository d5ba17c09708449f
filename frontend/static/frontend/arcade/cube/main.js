// The 3D 2048 page (/arcade/3d): the arcade controller (play.js) with the cube's 3D view, or without WebGL
// (or with ?flat) the flat view of its layers, played with the same camera-relative keys seen from the
// front. The size (2x2x2, 3x3x3) and the level (Normal, Hard: 3x3x3 only) are chosen on the page; the
// choice is kept on the device, and ?mode= names one.

import { hasWebGL } from "../../board/board3d.js";
import { $ } from "../../dom.js";
import { flatView } from "../flat/view.js";
import { startArcade } from "../play.js";
import { MODES } from "../rules.js";
import { keyDirection } from "./controls.js";
import { cubeView } from "./view.js";

const KEPT = "arcade-cube-mode";
const CUBES = ["cube2", "cube3", "cube3-hard"];

/** The mode the page opens on: ?mode=, else the last one chosen here, else the 3x3x3 Normal. */
function firstMode() {
  const asked = new URLSearchParams(location.search).get("mode");
  if (asked && CUBES.includes(asked)) return asked;
  try {
    const kept = localStorage.getItem(KEPT);
    if (kept && CUBES.includes(kept)) return kept;
  } catch {
    // no storage: the default
  }
  return "cube3";
}

/** The view: the cube in 3D, or its layers side by side where there is no WebGL. */
function chooseView() {
  const cube = cubeView();
  if (hasWebGL() && !new URLSearchParams(location.search).has("flat")) return cube;
  const flat = flatView();
  $("#cube-hint").hidden = true; // it tells of turning the cube and of the back view
  // Seen from the front: the layers' back rows on top, so "away" (up the screen) is forward.
  return { ...flat, direction: (/** @type {string} */ key) => keyDirection(key, 0), keysHelp: () => cube.keysHelp() };
}

const mode = firstMode();
const arcade = startArcade({ view: chooseView(), mode });
const form = $("#cube-choice", HTMLFormElement);

/** @param {string} id */
function showChoice(id) {
  const size = MODES[id].shape[0];
  for (const input of form.querySelectorAll("input")) {
    if (input.name === "cube-size") input.checked = Number(input.value) === size;
    if (input.name === "cube-level") {
      input.checked = input.value === (id === "cube3-hard" ? "hard" : "normal");
      input.disabled = size === 2 && input.value === "hard"; // no Hard on the 2x2x2
    }
  }
  $("#cube-scores", HTMLAnchorElement).href = `/arcade/scores?mode=${id}`;
}

form.addEventListener("change", () => {
  const size = form.querySelector("input[name=cube-size]:checked");
  const hard = form.querySelector("input[name=cube-level][value=hard]:checked");
  const id = size instanceof HTMLInputElement && size.value === "2" ? "cube2" : hard ? "cube3-hard" : "cube3";
  showChoice(id);
  try {
    localStorage.setItem(KEPT, id);
  } catch {
    // no storage: chosen for this visit
  }
  arcade.switchMode(id);
  // The arrow keys play again at once (on a focused radio button they would choose another cube).
  if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
});
showChoice(mode);
