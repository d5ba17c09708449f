import { describe, expect, test } from "vitest";
import {
  actionOf,
  emptyBell,
  fromPage,
  KEPT,
  markRead,
  receive,
  rulesText,
  tabTitle,
} from "../static/frontend/notify/state.js";

/** @param {number} id @param {string} [kind] */
const note = (id, kind = "followed") => ({ id, kind, read: false, text: `n${id}`, url: null, data: {} });

describe("the bell's state", () => {
  test("a live notification goes first, once by id, with the count the frame says", () => {
    let bell = fromPage({ unread: 1, results: [note(1)], next: null });
    bell = receive(bell, { type: "notification", notification: note(2), unread: 2 });
    bell = receive(bell, { type: "notification", notification: note(2), unread: 2 }); // heard twice: shown once
    expect(bell.items.map((n) => n.id)).toEqual([2, 1]);
    expect(bell.unread).toBe(2);
  });

  test("it keeps the newest KEPT", () => {
    let bell = emptyBell();
    for (let id = 1; id <= KEPT + 5; id++) bell = receive(bell, { notification: note(id), unread: id });
    expect(bell.items).toHaveLength(KEPT);
    expect(bell.items[0].id).toBe(KEPT + 5);
  });

  test("marking read: some ids, or all", () => {
    const bell = fromPage({ unread: 3, results: [note(3), note(2), note(1)] });
    expect(markRead(bell, [2], 2).items.map((n) => n.read)).toEqual([false, true, false]);
    expect(markRead(bell, null, 0)).toEqual({ unread: 0, items: bell.items.map((n) => ({ ...n, read: true })) });
  });

  test("a malformed page or frame changes nothing", () => {
    expect(fromPage(null)).toEqual(emptyBell());
    const bell = fromPage({ unread: 1, results: [note(1)] });
    expect(receive(bell, { type: "notification" })).toBe(bell);
  });

  test("the title leads with the count only while the tab is hidden and something is unread", () => {
    expect(tabTitle("Replay", 3, true)).toBe("(3) Replay");
    expect(tabTitle("Replay", 3, false)).toBe("Replay");
    expect(tabTitle("Replay", 0, true)).toBe("Replay");
  });
});

describe("what a notification asks of the page", () => {
  const challenge = { id: "k7", status: "created", turn_seconds: 60, ranked: false, colour: "red" };

  test("a waiting challenge opens the inbox; an accepted one takes the challenger to the room", () => {
    expect(actionOf({ ...note(1, "challenge"), data: { challenge } }, "puzzle")).toBe("inbox");
    expect(
      actionOf({ ...note(1, "challenge"), data: { challenge: { ...challenge, status: "canceled" } } }, "home"),
    ).toBe(null);
    const accepted = { ...note(2, "challenge_accepted"), url: "/r/K7QZ2M" };
    expect(actionOf(accepted, "replay")).toBe("go");
    expect(actionOf(accepted, "room")).toBe(null); // not pulled out of a room (perhaps a game)
    expect(actionOf(note(3), "home")).toBe(null);
  });

  test("the rules read from each side: the colour is the challenger's choice", () => {
    expect(rulesText(challenge, "dest")).toBe("60 s a move · casual · you play yellow");
    expect(rulesText(challenge, "challenger")).toBe("60 s a move · casual · you play red");
    expect(rulesText({ ...challenge, turn_seconds: null, ranked: true, colour: "random" }, "dest")).toBe(
      "no turn timer · ranked · colours by lot",
    );
  });
});
