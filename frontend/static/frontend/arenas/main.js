// The arenas page (/arenas, linked from the header): the arenas running, upcoming and finished, each list
// refreshed every 20 s, and the form that creates one (arenas/list.js, shared with the home page).

import { apiGet } from "../api.js";
import { $ } from "../dom.js";
import { arenaItem, bindArenaForm } from "./list.js";

const STATUSES = ["started", "created", "finished"];

async function refresh() {
  for (const status of STATUSES) {
    try {
      const page = await apiGet(`/api/tournaments?status=${status}&limit=${status === "finished" ? 20 : 50}`);
      $(`#arenas-${status}`).innerHTML = page.results.map(arenaItem).join("");
      $(`#arenas-${status}-empty`).hidden = page.results.length > 0;
    } catch {
      /* the next refresh tries again */
    }
  }
}

refresh();
setInterval(refresh, 20000);
bindArenaForm();
