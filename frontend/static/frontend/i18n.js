// The pages' words in the page's language (docs/translating.md). The page loads its language's catalog as a
// classic script before its modules (frontend/jscatalog.py serves it, built from
// frontend/locale/<lang>/LC_MESSAGES/djangojs.po), which sets `globalThis.I18N`; without one (English, or the
// unit tests in Node) a text is its msgid. `make messages` extracts the calls below (Django's makemessages
// -d djangojs reads gettext, ngettext, pgettext and npgettext), so their texts must be literal strings.
//
// Placeholders are named, `%(peg)s`, filled from the values given (a number is written for the language);
// ngettext and npgettext fill `%(n)s` with the count. Numbers, dates and lists follow the page's language
// (`<html lang>`).

/**
 * A language's catalog, as the catalog script sets it.
 * @typedef {object} Catalog
 * @property {string} lang e.g. "ja"
 * @property {(n: number) => number} plural the index of the plural form for a count (the .po's Plural-Forms)
 * @property {Record<string, string | string[]>} catalog msgid (or "context\u0004msgid") to its translation,
 *   a list of the plural forms for a msgid with a plural
 */

/** @typedef {Record<string, string | number>} Values */

/** @type {Catalog | null} */
let current = /** @type {any} */ (globalThis).I18N || null;

/**
 * Makes `catalog` the one texts come from (null: none, the msgids). For the unit tests; a page has its own.
 * @param {Catalog | null} catalog
 */
export function useCatalog(catalog) {
  current = catalog;
  formats.clear();
}

/** The page's language: `<html lang>`, else the catalog's, else English. */
export function lang() {
  const page = typeof document === "undefined" ? "" : document.documentElement.lang;
  return page || current?.lang || "en";
}

/** @param {string} key @returns {string | string[] | undefined} */
function lookup(key) {
  const found = current?.catalog[key];
  return found?.length ? found : undefined;
}

/**
 * `text` with its `%(name)s` placeholders filled from `values` (a number written for the language); a
 * placeholder without a value stays as it is. `%%` is a percent sign once values are given.
 * @param {string} text
 * @param {Values} [values]
 */
export function interpolate(text, values) {
  if (!values) return text;
  return text.replace(/%(?:\((\w+)\)s|%)/g, (whole, name) => {
    if (!name) return "%";
    if (!(name in values)) return whole;
    const value = values[name];
    return typeof value === "number" ? formatNumber(value) : String(value);
  });
}

/**
 * A text in the page's language.
 * @param {string} msgid the English text
 * @param {Values} [values] its placeholders' values
 */
export function gettext(msgid, values) {
  const found = lookup(msgid);
  return interpolate(typeof found === "string" ? found : msgid, values);
}

/**
 * A text for a count, in the form the page's language gives that count; `%(n)s` is the count.
 * @param {string} singular
 * @param {string} plural
 * @param {number} n
 * @param {Values} [values]
 */
export function ngettext(singular, plural, n, values) {
  return pluralOf(lookup(singular), singular, plural, n, values);
}

/**
 * A text whose translation depends on where it is used (`context`, e.g. "colour").
 * @param {string} context
 * @param {string} msgid
 * @param {Values} [values]
 */
export function pgettext(context, msgid, values) {
  const found = lookup(`${context}\u0004${msgid}`);
  return interpolate(typeof found === "string" ? found : msgid, values);
}

/**
 * ngettext with a context.
 * @param {string} context
 * @param {string} singular
 * @param {string} plural
 * @param {number} n
 * @param {Values} [values]
 */
export function npgettext(context, singular, plural, n, values) {
  return pluralOf(lookup(`${context}\u0004${singular}`), singular, plural, n, values);
}

/**
 * @param {string | string[] | undefined} found
 * @param {string} singular
 * @param {string} plural
 * @param {number} n
 * @param {Values} [values]
 */
function pluralOf(found, singular, plural, n, values) {
  const all = { n, ...values };
  if (Array.isArray(found) && current) {
    const form = found[current.plural(n)] || found.at(-1);
    if (form) return interpolate(form, all);
  }
  return interpolate(n === 1 ? singular : plural, all);
}

/** @type {Map<string, Intl.NumberFormat | Intl.DateTimeFormat>} */
const formats = new Map();

/**
 * @template {Intl.NumberFormat | Intl.DateTimeFormat} F
 * @param {string} kind
 * @param {object} options
 * @param {(lang: string) => F} make
 * @returns {F}
 */
function format(kind, options, make) {
  const key = `${lang()} ${kind} ${JSON.stringify(options)}`;
  let found = formats.get(key);
  if (!found) {
    found = make(lang());
    formats.set(key, found);
  }
  return /** @type {F} */ (found);
}

/**
 * A number as the page's language writes it: 12,345 / 12.345 / 12 345 (grouped from five digits on, so a
 * rating reads 1500 everywhere).
 * @param {number} n
 * @param {Intl.NumberFormatOptions} [options]
 */
export function formatNumber(n, options = {}) {
  const opts = { useGrouping: /** @type {const} */ ("min2"), maximumFractionDigits: 1, ...options };
  return format("n", opts, (l) => new Intl.NumberFormat(l, opts)).format(n);
}

/** A share (0.45) as a percentage in the page's language: 45%, 45 %. @param {number} share */
export function formatPercent(share) {
  return formatNumber(share, { style: "percent", maximumFractionDigits: 0 });
}

/**
 * An instant in the page's language; "" for a missing or bad one.
 * @param {string | number | Date | null | undefined} at
 * @param {Intl.DateTimeFormatOptions} [options] the parts to show (date and time, medium and short, unless told)
 */
export function formatDate(at, options = { dateStyle: "medium", timeStyle: "short" }) {
  if (at == null || at === "") return "";
  const date = at instanceof Date ? at : new Date(at);
  if (Number.isNaN(date.getTime())) return "";
  return format("d", options, (l) => new Intl.DateTimeFormat(l, options)).format(date);
}

/** Items joined as the page's language lists them ("a1, b2, c3"; "a1、b2、c3"). @param {string[]} items */
export function listText(items) {
  return items.join(pgettext("list separator", ", "));
}
