// The room socket's frames as the page reads them (docs/protocol.md, "Room socket"). Types only.

/** @typedef {"red" | "yellow"} Colour */
/** @typedef {{peg: string, level: number}} Cell */
/** @typedef {{peg: string, level: number, playable: boolean}} Threat */
/** @typedef {{red?: Threat[], yellow?: Threat[]}} Threats */

/**
 * @typedef {object} Player
 * @property {string} id
 * @property {string} name
 * @property {string | null} [title] "BOT" for a bot account
 */

/**
 * @typedef {object} SeatRating the seat person's rating as the server displays it
 * @property {number} rating
 * @property {number} rd
 * @property {boolean} provisional
 * @property {string} display like "1500?"
 * @property {number | null} if_win
 * @property {number | null} if_draw
 * @property {number | null} if_loss
 */

/**
 * @typedef {object} Seat
 * @property {number} seat
 * @property {Player | null} player
 * @property {boolean} cpu
 * @property {boolean} connected
 * @property {boolean} away
 * @property {string | null} away_at
 * @property {boolean} wants_again
 * @property {SeatRating | null} rating
 */

/**
 * @typedef {object} Rules
 * @property {number | null} turn_seconds
 * @property {number | null} [days_per_move] a correspondence room's
 * @property {boolean} alternate_first
 * @property {boolean} ranked
 * @property {number} cpu_level
 * @property {boolean} spectator_chat
 * @property {boolean} open
 */

/**
 * @typedef {object} Game
 * @property {string} id
 * @property {number} [number]
 * @property {"playing" | "won" | "drawn" | "resigned" | "abandoned"} status
 * @property {number} red_seat
 * @property {number} to_move_seat
 * @property {number} ply
 * @property {string[]} moves
 * @property {number | null} winner_seat
 * @property {Cell[] | null} line
 * @property {string | null} deadline
 * @property {number | null} [days_per_move] a correspondence game's
 * @property {string | null} reason
 * @property {Threats | null} threats
 * @property {string | null} [tournament] the arena that paired this game
 * @property {boolean} [ranked]
 * @property {Offer[]} [offers] the offers standing
 * @property {{red: boolean, yellow: boolean}} [berserk] the colours on half their turn timer
 */

/** @typedef {{kind: "draw" | "takeback", seat: number}} Offer */

/**
 * @typedef {object} Room a room frame, or one a move frame was applied to
 * @property {"room"} type
 * @property {number} version
 * @property {string} [code]
 * @property {string | null} host the host's player id
 * @property {Rules} rules
 * @property {Seat[]} seats
 * @property {number} spectators
 * @property {Game | null} game
 * @property {string | null} closed_at
 * @property {{player: string | null, seat: number | null} | null} you
 * @property {number} [taken_back] in the one room frame a takeback sends: the plies taken back
 */

/**
 * @typedef {object} MoveFrame
 * @property {"move"} type
 * @property {number} version
 * @property {string} game the game's id
 * @property {number} ply
 * @property {string} peg
 * @property {number} level
 * @property {number} seat
 * @property {boolean} cpu
 * @property {number} to_move_seat
 * @property {string | null} deadline
 * @property {Game["status"]} status
 * @property {number | null} winner_seat
 * @property {Cell[] | null} line
 * @property {string | null} reason
 * @property {Threats | null} threats
 * @property {Offer[]} [offers]
 */

/** @typedef {{type: "spectators", version: number, spectators: number}} SpectatorsFrame */
/** @typedef {{type: "offer", kind: "draw" | "takeback", seat: number, action: "offer" | "accept" | "decline"}} OfferFrame */
/** @typedef {{type: "error", code?: string, message?: string}} ErrorFrame */
/** @typedef {{type: "notice", code: "timeout" | "away" | "back" | string, seat: number}} NoticeFrame */

export {};
