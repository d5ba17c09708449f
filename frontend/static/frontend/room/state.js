// The room page's state and the facts derived from it, pure (no DOM, no socket): what the controller
// (ctrl.js), the view (view.js) and the socket handlers (handlers.js) read, and how a room frame and an
// error change it. Every fact reads the latest applied room frame (S.room), so quick repeated taps never
// act on an old board.

import { replay, SIZE, seatColour } from "../game.js";
import { gettext } from "../i18n.js";
import { shownName } from "../text.js";

/** @typedef {import("./types.js").Room} Room */
/** @typedef {import("./types.js").Game} Game */
/** @typedef {import("./types.js").Seat} Seat */
/** @typedef {import("./types.js").Cell} Cell */
/** @typedef {import("./types.js").Colour} Colour */

/**
 * @typedef {object} RoomPageState
 * @property {Room | null} room the latest applied room frame
 * @property {string | null} selected the peg chosen once (a second tap drops on it)
 * @property {string | null} premove the peg picked during the opponent's turn, sent when theirs arrives
 * @property {string | null} cross a full peg marked with a cross
 * @property {number | null} pendingPly the ply a drop in flight was made on
 * @property {string | null} pendingPeg that drop's peg
 * @property {string | null} lastGameId the game drawn last (a new bead on it falls)
 * @property {number} lastPly the ply drawn last
 * @property {boolean} resignArmed the first tap on Resign was made
 * @property {{game: string, display: string} | null} ratingAtStart the viewer's rating while the game ran
 * @property {boolean} autostart the page was opened to start the game (`?start=1`)
 * @property {boolean} remembered the room is in this device's recent rooms
 */

/**
 * @param {boolean} autostart
 * @returns {RoomPageState}
 */
export function newState(autostart) {
  return {
    room: null,
    selected: null,
    premove: null,
    cross: null,
    pendingPly: null,
    pendingPeg: null,
    lastGameId: null,
    lastPly: -1,
    resignArmed: false,
    ratingAtStart: null,
    autostart,
    remembered: false,
  };
}

/** @param {RoomPageState} S */
export function game(S) {
  return S.room ? S.room.game : null;
}

/** @param {RoomPageState} S */
export function mySeat(S) {
  return S.room?.you ? S.room.you.seat : null;
}

/** @param {RoomPageState} S @returns {boolean} */
export function isPlaying(S) {
  const g = game(S);
  return !!g && g.status === "playing";
}

/** @param {RoomPageState} S @returns {boolean} */
export function isMyTurn(S) {
  const g = game(S);
  return !!g && isPlaying(S) && mySeat(S) != null && g.to_move_seat === mySeat(S);
}

/** A closed room shows its last state; nothing can be done in it any more. @param {RoomPageState} S */
export function isClosed(S) {
  return !!S.room?.closed_at;
}

/** True for a viewer without a seat: they watch, and see no controls they cannot use. @param {RoomPageState} S */
export function isWatching(S) {
  return !!S.room && mySeat(S) == null;
}

/** A seat this viewer could take now (a free one, or the CPU's between games). @param {RoomPageState} S */
export function canSit(S) {
  return isWatching(S) && !isClosed(S) && !!S.room && S.room.seats.some((s) => !s.player && (!s.cpu || !isPlaying(S)));
}

/** @param {RoomPageState} S */
export function isHost(S) {
  return !!(S.room?.you?.player && S.room.you.player === S.room.host);
}

/**
 * The board of the latest game: each peg's beads, the last bead, the winning line once over, the ply.
 * @param {RoomPageState} S
 * @returns {{stacks: Record<string, Colour[]>, last: Cell | null, line: Cell[] | null, ply: number}}
 */
export function position(S) {
  const g = game(S);
  const moves = g ? g.moves || [] : [];
  const { stacks, placed } = replay(moves);
  const finished = g && g.status !== "playing";
  return { stacks, last: placed.at(-1) || null, line: finished && g.line ? g.line : null, ply: moves.length };
}

/** @param {RoomPageState} S @param {number | null} n @returns {Seat | null} */
export function seatOf(S, n) {
  return S.room?.seats.find((s) => s.seat === n) || null;
}

/** @param {Seat | null} seat */
export function seatName(seat) {
  if (!seat) return "—";
  if (seat.player) return shownName(seat.player);
  return seat.cpu ? gettext("Computer") : gettext("Open seat");
}

/** The colour to move, or null before the first game. @param {RoomPageState} S @returns {Colour | null} */
export function moverColour(S) {
  const g = game(S);
  return g ? seatColour(g, g.to_move_seat) : null;
}

/**
 * True when `peg` holds all its beads on the latest board.
 * @param {RoomPageState} S
 * @param {string} peg
 */
export function isFull(S, peg) {
  return (position(S).stacks[peg] || []).length >= SIZE;
}

/**
 * Takes a room frame in: a drop in flight is over once its ply passed (or the game changed); a selection
 * on a peg that filled up, or in a game that ended, is dropped; the viewer's rating is kept while a rated
 * game runs. Returns what the page does about it besides drawing it.
 * @param {RoomPageState} S
 * @param {Room} frame
 * @returns {{remember: boolean, newGame: boolean}} remember: the viewer sat down here for the first time;
 *   newGame: another game began for a seated viewer (bring the turn into view)
 */
export function receiveRoom(S, frame) {
  const prev = S.room;
  S.room = frame;
  const g = frame.game;
  if (!g || S.pendingPly == null || g.ply > S.pendingPly || (prev?.game && prev.game.id !== g.id)) {
    S.pendingPly = null;
  }
  if (S.selected && isFull(S, S.selected)) S.selected = null;
  if (g && g.status !== "playing") S.selected = S.premove = null;
  if (frame.taken_back) S.premove = null;
  const seated = !!frame.you && frame.you.seat != null;
  const mine = seated ? seatOf(S, mySeat(S)) : null;
  if (g && g.status === "playing" && mine?.rating && mine.rating.if_win != null) {
    S.ratingAtStart = { game: g.id, display: mine.rating.display };
  }
  const remember = seated && !S.remembered;
  if (remember) S.remembered = true;
  return { remember, newGame: !!g && !!prev?.game && prev.game.id !== g.id && seated };
}
