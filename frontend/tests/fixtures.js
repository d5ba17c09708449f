// Frames as the room socket sends them (docs/protocol.md), built small for the tests.

/** @typedef {import("../static/frontend/room/types.js").Room} Room */
/** @typedef {import("../static/frontend/room/types.js").Game} Game */
/** @typedef {import("../static/frontend/room/types.js").Seat} Seat */
/** @typedef {import("../static/frontend/room/types.js").MoveFrame} MoveFrame */

/**
 * @param {number} seat
 * @param {Partial<Seat>} [fields]
 * @returns {Seat}
 */
export function seat(seat, fields = {}) {
  return {
    seat,
    player: { id: `p${seat}`, name: `Player ${seat}` },
    cpu: false,
    connected: true,
    away: false,
    away_at: null,
    wants_again: false,
    rating: null,
    ...fields,
  };
}

/**
 * @param {Partial<Game>} [fields]
 * @returns {Game}
 */
export function game(fields = {}) {
  const moves = fields.moves || [];
  return {
    id: "g1",
    number: 1,
    status: "playing",
    red_seat: 1,
    to_move_seat: moves.length % 2 === 0 ? 1 : 2,
    ply: moves.length,
    moves,
    winner_seat: null,
    line: null,
    deadline: null,
    reason: null,
    threats: null,
    ...fields,
  };
}

/**
 * A room of two seated players (p1 the host), seen by `you` (a seat number, or null for a spectator).
 * @param {{version?: number, game?: Game | null, you?: number | null, seats?: Seat[]}} [fields]
 * @returns {Room}
 */
export function room({ version = 1, game = null, you = 1, seats = [seat(1), seat(2)] } = {}) {
  return {
    type: "room",
    version,
    code: "K7QZ2M",
    host: "p1",
    rules: {
      turn_seconds: null,
      alternate_first: true,
      ranked: false,
      cpu_level: 3,
      spectator_chat: true,
      open: false,
    },
    seats,
    spectators: 0,
    game,
    closed_at: null,
    you: { player: you == null ? "watcher" : `p${you}`, seat: you },
  };
}

/**
 * The move frame that follows `before` with a drop on `peg`.
 * @param {Room} before
 * @param {string} peg
 * @param {Partial<MoveFrame>} [fields]
 * @returns {MoveFrame}
 */
export function move(before, peg, fields = {}) {
  const g = before.game;
  if (!g) throw new Error("no game to move in");
  const ply = g.moves.length + 1;
  return {
    type: "move",
    version: before.version + 1,
    game: g.id,
    ply,
    peg,
    level: 1 + g.moves.filter((m) => m === peg).length,
    seat: g.to_move_seat,
    cpu: false,
    to_move_seat: g.to_move_seat === 1 ? 2 : 1,
    deadline: null,
    status: "playing",
    winner_seat: null,
    line: null,
    reason: null,
    threats: null,
    ...fields,
  };
}
