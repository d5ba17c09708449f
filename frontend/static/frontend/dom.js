// Looking up the page's elements with their types: a page's script expects its template's elements, so a
// missing one (or one of another kind) is a mistake said at once, by selector, not a null read later.

/**
 * The first element matching `sel`, of the given kind (HTMLElement unless told).
 * @template {HTMLElement} [T=HTMLElement]
 * @param {string} sel
 * @param {{new (): T, prototype: T}} [kind] e.g. HTMLInputElement
 * @param {ParentNode} [root] where to look (the whole document unless told)
 * @returns {T}
 */
export function $(sel, kind, root = document) {
  const el = root.querySelector(sel);
  const want = kind || HTMLElement;
  if (!(el instanceof want)) throw new Error(`the page has no ${want.name} ${sel}`);
  return /** @type {T} */ (el);
}
