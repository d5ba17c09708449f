// Which sound a room frame makes for this viewer (pure: the page plays it, sounds.js): the end of a game
// (a win, a loss, a draw), the viewer's turn come round, or a move. The low clock's tick is timed by
// room/main.js (lowClock).

/** @typedef {import("./types.js").Room} Room */
/** @typedef {import("../sounds.js").SoundName} SoundName */

/**
 * @param {Room | null} prev the room before the frame
 * @param {Room} next the room the frame makes
 * @returns {SoundName | null}
 */
export function roomSound(prev, next) {
  const g = next.game;
  const before = prev?.game;
  if (!g || !before || before.id !== g.id) {
    return g && g.status === "playing" && g.ply === 0 && before?.id !== g.id && mine(next) ? "turn" : null;
  }
  const me = next.you?.seat ?? null;
  if (before.status === "playing" && g.status !== "playing") {
    if (g.status === "abandoned") return null;
    if (g.winner_seat == null || me == null) return g.winner_seat == null ? "draw" : "move";
    return g.winner_seat === me ? "win" : "loss";
  }
  if (g.moves.length > before.moves.length) return mine(next) ? "turn" : "move";
  return null;
}

/** Whether it is the viewer's turn in the room's game. @param {Room} room */
function mine(room) {
  const g = room.game;
  return !!g && g.status === "playing" && room.you?.seat != null && g.to_move_seat === room.you.seat;
}

/**
 * Whether the low-clock tick is due: the viewer's turn on a 30 or 60 s timer with 10 s or less left.
 * @param {Room | null} room
 * @param {number} now ms since the epoch
 */
export function lowClock(room, now) {
  const g = room?.game;
  if (!room || !g?.deadline || !mine(room) || ![30, 60].includes(room.rules.turn_seconds ?? 0)) return false;
  return Date.parse(g.deadline) - now <= 10000;
}
