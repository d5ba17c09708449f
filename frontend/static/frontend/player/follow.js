// A player's page, the people part: followers and following counts, and for a signed-in account Follow /
// Unfollow and Block / Unblock (docs/protocol.md, "People").

import { apiDelete, apiGet, apiPost, errorText, getSession } from "../api.js";
import { confirmDialog } from "../dialog.js";
import { $ } from "../dom.js";
import { gettext, ngettext, pgettext } from "../i18n.js";

/** @typedef {import("../api.js").Json} Json */

/**
 * "3 followers · 1 following".
 * @param {number} followers
 * @param {number} following
 */
export function countsText(followers, following) {
  const them = ngettext("%(n)s follower", "%(n)s followers", followers);
  return `${them} · ${pgettext("people", "%(n)s following", { n: following })}`;
}

/**
 * Show the counts and, for an account looking at someone else, the buttons.
 * @param {Json} data the player's page (GET /api/players/{id})
 */
export async function mountFollow(data) {
  const box = $("#social");
  const counts = $("#follow-counts");
  const follow = $("#follow-btn", HTMLButtonElement);
  const block = $("#block-btn", HTMLButtonElement);
  const status = $("#social-status");
  const following = data.following;
  counts.textContent = countsText(data.followers, following);
  box.hidden = false;
  const session = await getSession().catch(() => null);
  if (!session?.username || session.player.id === data.id) return; // a guest, or one's own page
  const base = `/api/players/${encodeURIComponent(data.id)}`;
  /** @type {Json} */
  let relation = await apiGet(`${base}/follow`);

  function render() {
    counts.textContent = countsText(relation.followers, following);
    follow.textContent = relation.following ? gettext("Unfollow") : gettext("Follow");
    follow.hidden = !data.account || relation.blocked;
    block.textContent = relation.blocked ? gettext("Unblock") : gettext("Block");
    block.hidden = false;
  }

  /** @param {string} url @param {boolean} on */
  async function act(url, on) {
    status.textContent = "";
    try {
      relation = on ? await apiPost(url) : await apiDelete(url);
    } catch (err) {
      status.textContent = errorText(err);
    }
    render();
  }

  follow.addEventListener("click", () => act(`${base}/follow`, !relation.following));
  block.addEventListener("click", async () => {
    const sure =
      relation.blocked ||
      (await confirmDialog(
        gettext("Block %(name)s?", { name: data.name }),
        gettext("Block %(name)s? They will not be told.", { name: data.name }),
        gettext("Block"),
      ));
    if (sure) act(`${base}/block`, !relation.blocked);
  });
  render();
}
