// The arcade pages' controller (2048's /arcade/2048 and the cube's /arcade/3d): the run's life, the input
// queue, the server over the arcade socket, undo, End run, the win and the end, the best score, offline play
// and the board in words. What the board looks like and which key means which direction is the page's
// *view*; the controller knows none of it.
//
// The view interface (flat/view.js is one; the cube's is another):
//
//   mount(el, ctx)        draw an empty board of ctx.mode (rules.js Mode) in `el`; ctx.play(dir) plays a
//                         direction (the view calls it for its own gestures: swipes, taps). May be called again
//                         with another mode (the cube page's size and Normal/Hard).
//   show(board, change)   show `board` (rules.js cells). change: null to draw it as it is; {tiles, merged}: the
//                         slide of a move (rules.js TileMove list, the cells a merge made), shown at once;
//                         {spawned}: the new tiles placed after it. A show while an animation runs finishes
//                         that one at once: input never waits for an animation.
//   direction(key)        the direction a KeyboardEvent.key plays, or null (the cube's follow its camera).
//   keysHelp()            the moves' keys, [{key, keys, symbol, label}]: `key` is what the on-screen button
//                         sends to direction(), `keys` the keys named on screen, `label` the move's name.
//
// The page's template includes frontend/_arcade_play.html (the board, the scores, the buttons, the panel, the
// board in words) and calls startArcade({view, mode}).

import { ApiError, apiGet, apiPost, errorText } from "../api.js";
import { confirmDialog } from "../dialog.js";
import { $ } from "../dom.js";
import { formatNumber, gettext } from "../i18n.js";
import { prefs, setPrefs } from "../prefs.js";
import { playSound } from "../sounds.js";
import { directionWord } from "./flat/view.js";
import { keepForOffline, savedLocalRun, saveLocalRun } from "./offline.js";
import { drawRecent, myBests, rememberRun } from "./recent.js";
import { cellCount, dealSpawns, modeById } from "./rules.js";
import { openRun } from "./run.js";
import { ArcadeSocket, RunSync } from "./sync.js";
import { boardLines, moveText, scoreText } from "./words.js";

/** @typedef {import("./rules.js").Mode} Mode */
/** @typedef {import("./rules.js").Spawn} Spawn */
/** @typedef {import("./rules.js").TileMove} TileMove */
/** @typedef {{tiles?: TileMove[], merged?: number[], spawned?: Spawn[]}} Change */
/** @typedef {{key: string, keys: string[], symbol: string, label: string}} KeyHelp */
/**
 * @typedef {object} ArcadeView
 * @property {(el: HTMLElement, ctx: {mode: Mode, play?: (dir: string) => void}) => void} mount
 * @property {(board: number[], change: Change | null) => void} show
 * @property {(key: string) => string | null} direction
 * @property {() => KeyHelp[]} keysHelp
 */

const GIVE_UP_MS = 4000; // a step unanswered this long with the socket closed: the run goes on locally
const KEEP_SAID = 20;

/**
 * Runs an arcade page.
 * @param {{view: ArcadeView, mode: string}} options
 */
export function startArcade({ view, mode: firstMode }) {
  const board = $("#arcade-board");
  const panel = $("#arcade-panel");
  const live = $("#arcade-live");
  /** @type {Mode} */ let mode = modeById(firstMode);
  let shown = /** @type {number[]} */ ([]);
  let shownScore = 0;
  let online = true; // false once the page plays locally for want of a network
  /** @type {ReturnType<typeof setTimeout> | undefined} */ let giveUp;
  /** @type {{merged: number[], dir: string} | null} */ let said = null;
  let lastStatus = "";
  let loading = 0;
  /** @type {string | undefined} the player the socket was opened for */ let player;

  const sync = new RunSync({
    send: (frame) => socket.send(frame),
    onEvent,
    refresh: () => open(mode.id),
  });
  const socket = new ArcadeSocket({
    frame: (frame) => sync.receive(frame),
    open: () => {
      clearTimeout(giveUp);
      sync.connected();
    },
    closed: () => {
      clearTimeout(giveUp);
      giveUp = setTimeout(() => {
        if (!socket.isOpen && sync.pending) goLocal();
      }, GIVE_UP_MS);
    },
  });

  /** @param {import("./sync.js").SyncEvent} ev */
  function onEvent(ev) {
    const run = sync.run;
    if (ev.kind === "slide") {
      said = { merged: ev.merged, dir: ev.dir };
      shownScore = (run?.score || 0) + ev.gained;
      view.show(ev.board, { tiles: ev.tiles, merged: ev.merged });
      playSound("move");
    } else if (ev.kind === "spawn") {
      view.show(ev.board, { spawned: ev.spawned });
      if (said && run) say(moveText(mode.shape, directionWord(said.dir), ev.board, said.merged, ev.spawned));
      said = null;
    } else if (ev.kind === "state") {
      view.show(ev.board, null);
    } else {
      $("#arcade-status").textContent = ev.message;
      return;
    }
    shown = ev.board;
    if (ev.kind !== "slide") shownScore = run?.score || 0;
    if (sync.local && run) saveLocalRun(mode.id, run);
    if (run && ev.kind !== "slide" && (run.moves > 0 || sync.local)) {
      const done = run.status === "ended" || (run.status === "over" && !mode.undo);
      rememberRun(mode.id, {
        id: sync.id,
        score: run.peakScore,
        top: run.peakTile,
        at: Date.now(),
        local: sync.local,
        done,
      });
      drawRecent($("#arcade-recent"), mode.id);
    }
    draw();
  }

  /** Scores, buttons, the panel and the board in words, as the run stands. */
  function draw() {
    const run = sync.run;
    $("#arcade-score").textContent = formatNumber(shownScore);
    $("#arcade-best").textContent = formatNumber(best());
    $("#arcade-local").hidden = !sync.local;
    $("#arcade-online").hidden = !(sync.local && online && navigator.onLine);
    $("#arcade-undo").hidden = !mode.undo;
    $("#arcade-undo", HTMLButtonElement).disabled = !sync.canUndo;
    $("#arcade-end", HTMLButtonElement).disabled = !run || run.status === "ended";
    const status = run ? run.status : "none";
    if (status !== lastStatus) {
      if (status === "won") playSound("win");
      if (status === "over" && lastStatus === "playing") playSound("loss");
      lastStatus = status;
    }
    drawPanel(status);
    board.dataset.status = status;
    if (!$("#arcade-words").hidden) {
      $("#arcade-grid").replaceChildren(
        ...boardLines(shown.length ? shown : new Array(cellCount(mode.shape)).fill(0), mode.shape).map((line) =>
          Object.assign(document.createElement("li"), { textContent: line }),
        ),
      );
    }
  }

  function best() {
    const run = sync.run;
    return sync.local || !run ? sync.best : Math.max(sync.best, run.peakScore);
  }

  /** @param {string} status */
  function drawPanel(status) {
    const run = sync.run;
    const show = status !== "playing";
    panel.hidden = !show;
    board.classList.toggle("under-panel", show);
    if (!show) return;
    const score = { score: run?.score || 0, best: best() };
    const texts = {
      none: [
        mode.id === "classic" ? "2048" : gettext("3D 2048"),
        gettext("Slide the tiles; two equal tiles make one. Press Start."),
      ],
      won: [
        gettext("You made %(tile)s!", { tile: mode.target }),
        gettext("Score %(score)s. Play on, or end the run.", score),
      ],
      over: [gettext("No move left"), gettext("Score %(score)s · best %(best)s", score)],
      ended: [gettext("Run ended"), gettext("Score %(score)s · best %(best)s", score)],
    };
    const [title, text] = texts[/** @type {keyof typeof texts} */ (status)] || texts.none;
    $("#arcade-panel-h").textContent = title;
    $("#arcade-panel-text").textContent = text;
    $("#arcade-start").textContent = status === "none" ? gettext("Start") : gettext("New run");
    $("#arcade-continue").hidden = status !== "won";
    $("#arcade-panel-undo").hidden = !(status === "over" && sync.canUndo);
    $("#arcade-panel-end").hidden = status !== "won";
  }

  /** @param {string} text */
  function say(text) {
    const p = document.createElement("p");
    p.textContent = text;
    live.append(p);
    while (live.childElementCount > KEEP_SAID) live.firstElementChild?.remove();
  }

  /** @param {string} dir */
  function press(dir) {
    if (sync.run) sync.press(dir);
  }

  /** Plays on without the network: this run, or the device's local one, or a new local one. */
  function goLocal() {
    online = navigator.onLine;
    if (sync.run && !sync.local) sync.goLocal();
    else if (!sync.run) sync.goLocal(savedLocalRun(mode.id) || newLocalRun());
    draw();
  }

  function newLocalRun() {
    const empty = new Array(cellCount(mode.shape)).fill(0);
    return openRun(mode, dealSpawns(empty, mode, 2));
  }

  /**
   * Opens the mode: its open run on the server, resumed; none: the Start panel; no network: a local run.
   * @param {string} modeId
   */
  async function open(modeId) {
    const ticket = ++loading;
    if (modeId !== mode.id || !shown.length) {
      mode = modeById(modeId);
      view.mount(board, { mode, play: press });
      drawArrows();
      drawRecent($("#arcade-recent"), mode.id);
    }
    if (!navigator.onLine) {
      sync.goLocal(savedLocalRun(mode.id) || newLocalRun());
      return;
    }
    let runs;
    try {
      runs = await apiGet(`/api/arcade/runs?mode=${encodeURIComponent(mode.id)}`);
    } catch (err) {
      if (ticket !== loading) return;
      if (!(err instanceof ApiError))
        goLocal(); // no network: the page was served by the service worker
      else $("#arcade-status").textContent = errorText(err);
      return;
    }
    if (ticket !== loading) return;
    player = runs[0]?.player?.id || player;
    if (runs.length) sync.load(runs[0]);
    else {
      const best = (await myBests())[mode.id];
      if (ticket !== loading) return;
      sync.best = best ? best.score : 0;
      sync.run = null;
      shown = [];
      shownScore = 0;
      view.show(new Array(cellCount(mode.shape)).fill(0), null);
      draw();
    }
  }

  async function newRun() {
    const run = sync.run;
    if (run && run.status === "playing" && !sync.local) {
      const yes = await confirmDialog(
        gettext("Start a new run?"),
        gettext("This run ends now and its score counts."),
        gettext("New run"),
      );
      if (!yes) return;
    }
    loading++; // a page's first look for an open run, still on its way, must not clear the run started now
    if (!navigator.onLine) {
      sync.goLocal(newLocalRun());
      return;
    }
    try {
      const started = await apiPost("/api/arcade/runs", { mode: mode.id });
      online = true;
      saveLocalRun(mode.id, null);
      if (started.player?.id !== player) socket.reconnectNow(); // the socket reads the device's player as it opens
      player = started.player?.id;
      sync.load(started);
    } catch (err) {
      if (err instanceof ApiError) $("#arcade-status").textContent = errorText(err);
      else sync.goLocal(newLocalRun());
    }
  }

  async function endRun() {
    const first = await confirmDialog(
      gettext("End this run?"),
      gettext("Its score is kept, and you cannot play it on."),
      gettext("End run"),
    );
    if (!first) return;
    const second = await confirmDialog(
      gettext("Really end the run?"),
      gettext("This cannot be undone."),
      gettext("Yes, end it"),
    );
    if (second) sync.act("end");
  }

  function drawArrows() {
    const help = view.keysHelp();
    $("#arcade-arrows").replaceChildren(
      ...help.map((h) => {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "btn ghost arrow";
        b.dataset.key = h.key;
        b.textContent = h.symbol;
        b.setAttribute("aria-label", h.label);
        b.addEventListener("click", () => {
          const dir = view.direction(h.key);
          if (dir) press(dir);
        });
        return b;
      }),
    );
    const keys = help.map((h) => `${h.label}: ${h.keys.join(" / ")}`).join(" · ");
    $("#arcade-keys").textContent = mode.undo
      ? gettext("%(keys)s · Undo: Z · Score: I", { keys })
      : gettext("%(keys)s · Score: I", { keys });
  }

  document.addEventListener("keydown", (ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || document.querySelector("dialog[open]")) return;
    const target = ev.target;
    if (target instanceof Element && target.closest("input, select, textarea, [contenteditable]")) return;
    const key = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
    if (key === "z" && mode.undo) sync.act("undo");
    else if (key === "i") say(scoreText(shownScore, best()));
    else {
      const dir = view.direction(ev.key);
      if (!dir) return;
      press(dir);
    }
    ev.preventDefault();
  });
  $("#arcade-start").addEventListener("click", newRun);
  $("#arcade-new").addEventListener("click", newRun);
  $("#arcade-end").addEventListener("click", endRun);
  $("#arcade-panel-end").addEventListener("click", endRun);
  $("#arcade-continue").addEventListener("click", () => sync.act("continue"));
  for (const sel of ["#arcade-undo", "#arcade-panel-undo"]) $(sel).addEventListener("click", () => sync.act("undo"));
  $("#arcade-say-score").addEventListener("click", () => say(scoreText(shownScore, best())));
  $("#arcade-back-online").addEventListener("click", () => {
    online = true;
    saveLocalRun(mode.id, null);
    open(mode.id);
  });
  const wordsToggle = $("#arcade-words-toggle");
  /** @param {boolean} on */
  function words(on) {
    $("#arcade-words").hidden = !on;
    wordsToggle.setAttribute("aria-pressed", String(on));
    draw();
  }
  wordsToggle.addEventListener("click", () => {
    const on = wordsToggle.getAttribute("aria-pressed") !== "true";
    words(on);
    setPrefs({ blind: on });
  });
  words(prefs().blind);
  window.addEventListener("offline", goLocal);
  window.addEventListener("online", () => {
    online = true;
    draw();
  });

  socket.connect();
  open(mode.id);
  const hook = {
    sync,
    view,
    offlineReady: false,
    /** @param {string} id */
    switchMode: (id) => open(id),
  };
  keepForOffline().then((kept) => {
    hook.offlineReady = kept;
  });
  /** @type {any} */ (window).__arcade = hook;
  return hook;
}
