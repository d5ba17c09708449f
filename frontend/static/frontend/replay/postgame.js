// The replay page's post-game analysis (GET /api/games/{id}/analysis): waiting for it, the marks on the
// moves, the evaluation strip over the positions, each side's summary and the key moments (which show the
// better move), and the links to the puzzles made of its missed wins. The page (replay/main.js) says how to
// show a position; this module says what the analysis found.

import { ApiError, apiGet } from "../api.js";
import { $ } from "../dom.js";
import { abandonedText, drawText, endText, sideName } from "../game.js";
import { gettext, listText, ngettext, pgettext } from "../i18n.js";

/** @typedef {import("../api.js").Json} Json */
/** @typedef {"red" | "yellow"} Colour */
/**
 * An analysed position: who is to move and what the position is worth.
 * @typedef {{to_move: Colour, mark?: string | null, eval: {kind: string, plies?: number, move?: string,
 *   score?: number}}} Entry
 */
/** @typedef {(ply: number, ghost?: {peg: string, colour: Colour} | null) => void} GoTo show the position after `ply` moves */

// How often the page asks again while the analysis is queued or running.
const ANALYSIS_POLL_MS = 1500;

/** @type {Record<string, {symbol: string, label: string}>} */
export const MARKS = {
  missed_win: { symbol: "?!", label: gettext("missed win") },
  slower_win: { symbol: "!?", label: gettext("slower win") },
  blunder: { symbol: "??", label: gettext("blunder") },
  only_move: { symbol: "!", label: gettext("only move") },
  best: { symbol: "✓", label: gettext("best move") },
};
/** @param {Colour} colour @returns {Colour} */
const other = (colour) => (colour === "red" ? "yellow" : "red");

/**
 * How a game ended, in words.
 * @param {Json} rec the game record
 */
export function describe(rec) {
  if (rec.status === "drawn") return drawText(rec.reason);
  if (rec.status === "abandoned") return abandonedText(rec.reason);
  if (!rec.winner) return gettext("Game in progress.");
  return endText(rec.reason, rec.winner);
}

/**
 * An entry's value for the strip, from Red's side: -1 (Yellow wins) .. 1 (Red wins).
 * @param {Entry} entry
 * @param {Json | null} record the game record (its winner values the final position)
 */
export function redValue(entry, record) {
  const ev = entry.eval;
  const sign = entry.to_move === "red" ? 1 : -1;
  if (ev.kind === "forced_win") return sign;
  if (ev.kind === "forced_loss") return -sign;
  if (ev.kind === "heuristic") {
    const s = sign * (ev.score || 0);
    return (0.9 * s) / (Math.abs(s) + 30); // a few tens of points is a clear edge; never reaches a proof's 1
  }
  if (ev.kind === "final" && record) {
    if (record.winner === "red") return 1;
    if (record.winner === "yellow") return -1;
  }
  return 0;
}

/**
 * The words for an entry's evaluation.
 * @param {Entry} entry
 * @param {Json | null} record
 */
export function evalText(entry, record) {
  const ev = entry.eval;
  const mover = sideName(entry.to_move);
  switch (ev.kind) {
    case "forced_win":
      return gettext("%(side)s wins by force in %(plies)s (proved), e.g. %(move)s", {
        side: mover,
        plies: ev.plies ?? "",
        move: ev.move ?? "",
      });
    case "forced_loss":
      return gettext("%(side)s wins by force in %(plies)s at the latest (proved)", {
        side: sideName(other(entry.to_move)),
        plies: ev.plies ?? "",
      });
    case "draw":
      return gettext("A draw with best play (proved)");
    case "heuristic": {
      const score = (entry.to_move === "red" ? ev.score : -(ev.score || 0)) || 0;
      const side = sideName(score > 0 ? "red" : "yellow");
      const opinion =
        score === 0
          ? pgettext("engine's opinion", "even")
          : gettext("%(side)s better by %(score)s", { side, score: Math.abs(score) });
      return gettext("Engine's opinion (not proved): %(opinion)s; suggests %(move)s", { opinion, move: ev.move ?? "" });
    }
    default:
      return record ? describe(record) : gettext("The game is over.");
  }
}

/**
 * A key moment in words, in the page's language: said from the analysis' entries of the positions before
 * and after the move (the server's English sentence when they are missing).
 * @param {Json} m a moment {ply, move_number, colour, peg, kind, text, better}
 * @param {Entry[] | undefined} plies the analysis' entries
 */
export function momentText(m, plies) {
  const before = plies?.[m.ply]?.eval;
  const after = plies?.[m.ply + 1]?.eval;
  if (!before || !after) return String(m.text || "");
  const values = {
    n: m.move_number,
    side: sideName(m.colour),
    peg: m.peg,
    opponent: sideName(other(m.colour)),
    better: m.better ?? before.move ?? "",
    before: before.plies ?? "",
    after: after.plies ?? "",
    slower: (after.plies ?? 0) + 1,
  };
  if (m.kind === "slower_win")
    return gettext(
      "Move %(n)s, %(side)s %(peg)s: still wins by force, but in %(slower)s instead of %(before)s (%(better)s first)",
      values,
    );
  if (m.kind !== "missed_win")
    return gettext("Move %(n)s, %(side)s %(peg)s: after this %(opponent)s wins by force in %(after)s", values);
  if (after.kind === "forced_win")
    return gettext(
      "Move %(n)s, %(side)s %(peg)s: missed a forced win in %(before)s (%(better)s first); after this %(opponent)s wins by force in %(after)s",
      values,
    );
  if (after.kind === "draw")
    return gettext(
      "Move %(n)s, %(side)s %(peg)s: missed a forced win in %(before)s (%(better)s first); after this the game is a draw with best play",
      values,
    );
  return gettext("Move %(n)s, %(side)s %(peg)s: missed a forced win in %(before)s (%(better)s first)", values);
}

/**
 * Asks for the game's analysis until it is done (or cannot be), saying how it stands, and hands it over.
 * @param {string} game the game's id
 * @param {(analysis: Json) => void} done
 */
export async function loadAnalysis(game, done) {
  let a;
  try {
    a = await apiGet(`/api/games/${encodeURIComponent(game)}/analysis`);
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 409)) {
      // Abandoned games are not analysed; a game being played is analysed when it ends.
      $("#analysis-status").textContent =
        err.code === "game_playing"
          ? gettext("The game is analysed when it ends.")
          : gettext("This game has no analysis.");
    } else {
      $("#analysis-status").textContent = gettext("The analysis could not be loaded; retrying…");
      setTimeout(() => loadAnalysis(game, done), ANALYSIS_POLL_MS * 4);
    }
    return;
  }
  if (a.status === "queued" || a.status === "running") {
    $("#analysis-status").textContent =
      a.status === "running" ? gettext("Analysis in progress…") : gettext("Analysis in progress (queued)…");
    $("#analysis").classList.add("pending");
    setTimeout(() => loadAnalysis(game, done), ANALYSIS_POLL_MS);
    return;
  }
  $("#analysis").classList.remove("pending");
  if (a.status !== "done" || !Array.isArray(a.plies)) {
    $("#analysis-status").textContent = gettext("The analysis could not be computed.");
    return;
  }
  $("#analysis-status").textContent = a.moments.length
    ? gettext("Done. Click a key moment to see what was better.")
    : gettext("Done: no missed wins and no blunders were proved.");
  done(a);
}

/**
 * Draws a done analysis: the marks, the strip, the summary and the key moments.
 * @param {Json} a the analysis
 * @param {{game: string, record: Json | null, goTo: GoTo}} page
 */
export function renderAnalysis(a, page) {
  renderMarks(a);
  renderStrip(a, page);
  renderSummary(a);
  renderMoments(a, page);
}

/** @param {Json} a */
function renderMarks(a) {
  const items = document.querySelectorAll("#moves li");
  a.plies.forEach((/** @type {Entry} */ entry, /** @type {number} */ i) => {
    const info = entry.mark ? MARKS[entry.mark] : undefined;
    if (!info || !entry.mark || !items[i]) return;
    const mark = document.createElement("span");
    mark.className = `mark mark-${entry.mark}`;
    mark.dataset.mark = entry.mark;
    mark.textContent = info.symbol;
    mark.title = info.label;
    const hidden = document.createElement("span");
    hidden.className = "visually-hidden";
    hidden.textContent = ` (${info.label})`;
    mark.append(hidden);
    items[i].append(mark);
  });
}

/** @param {Json} a @param {{record: Json | null, goTo: GoTo}} page */
function renderStrip(a, { record, goTo }) {
  const strip = $("#eval-strip");
  strip.replaceChildren();
  a.plies.forEach((/** @type {Entry} */ entry, /** @type {number} */ i) => {
    const cell = document.createElement("button");
    cell.type = "button";
    const proved = ["forced_win", "forced_loss", "draw"].includes(entry.eval.kind);
    cell.className = `eval-cell ${proved ? "forced" : entry.eval.kind}`;
    cell.dataset.kind = entry.eval.kind;
    const v = redValue(entry, record);
    cell.style.setProperty("--v", String(Math.abs(v)));
    cell.classList.add(v > 0 ? "red-side" : v < 0 ? "yellow-side" : "even");
    const bar = document.createElement("span");
    bar.className = "eval-bar";
    cell.append(bar);
    const label = gettext("Position after move %(n)s: %(evaluation)s", { n: i, evaluation: evalText(entry, record) });
    cell.setAttribute("aria-label", label);
    cell.title = label;
    cell.addEventListener("click", () => goTo(i));
    strip.append(cell);
  });
  strip.hidden = false;
  $("#eval-legend").hidden = false;
}

/** @param {Json} a */
function renderSummary(a) {
  const list = $("#analysis-summary");
  list.replaceChildren();
  for (const colour of /** @type {Colour[]} */ (["red", "yellow"])) {
    const s = a.summary?.[colour];
    if (!s) continue;
    const li = document.createElement("li");
    const bead = document.createElement("span");
    bead.className = `bead ${colour}`;
    const parts = [
      ngettext("%(n)s best", "%(n)s best", s.best),
      ngettext("%(n)s only move", "%(n)s only moves", s.only_move),
      ngettext("%(n)s slower win", "%(n)s slower wins", s.slower_win ?? 0),
      ngettext("%(n)s missed win", "%(n)s missed wins", s.missed_win),
      ngettext("%(n)s blunder", "%(n)s blunders", s.blunder),
    ];
    const moves = ngettext("%(n)s move", "%(n)s moves", s.moves);
    li.append(bead, ` ${sideName(colour)}: ${listText(parts)} (${moves})`);
    list.append(li);
  }
  list.hidden = false;
}

/** @param {Json} a @param {{game: string, goTo: GoTo}} page */
function renderMoments(a, { game, goTo }) {
  const list = $("#moments");
  list.replaceChildren();
  for (const m of a.moments) {
    const li = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = `moment moment-${MARKS[m.kind] ? m.kind : "missed_win"}`;
    button.dataset.ply = String(m.ply);
    button.textContent = momentText(m, a.plies);
    if (m.better) {
      const better = document.createElement("span");
      better.className = "moment-better";
      better.textContent = ` ${gettext("Better: %(peg)s.", { peg: m.better })}`;
      button.append(better);
    }
    button.addEventListener("click", () => goTo(m.ply, m.better ? { peg: m.better, colour: m.colour } : null));
    li.append(button);
    li.dataset.ply = String(m.ply);
    list.append(li);
  }
  list.hidden = $("#moments-title").hidden = a.moments.length === 0;
  linkPuzzles(game);
}

/**
 * Each missed win made into a puzzle (GET /api/puzzles?game=...) gets a link to solve it.
 * @param {string} game
 */
async function linkPuzzles(game) {
  let found;
  try {
    found = await apiGet(`/api/puzzles?game=${encodeURIComponent(game)}`);
  } catch {
    return;
  }
  for (const p of found.puzzles) {
    const li = document.querySelector(`#moments li[data-ply="${p.ply}"]`);
    if (!li || li.querySelector(".moment-puzzle")) continue;
    const a = document.createElement("a");
    a.className = "moment-puzzle small";
    a.href = `/puzzles/${encodeURIComponent(p.id)}`;
    a.textContent = gettext("Solve it as a puzzle (win in %(plies)s)", { plies: p.plies });
    li.append(a);
  }
}
