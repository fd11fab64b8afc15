// Rowstream controls: a table's sort and filter form (`<form class="rs-controls">`, one `<select name="p.PARAM">`
// per control, docs/PROTOCOL.md "Sort and filter controls"), read as URL parameters. Imported by table.js.
//
// The choice lives in the page's URL (`?p.sort=name` on a table's own page, `?NAME.p.sort=name` for table NAME on a
// page of several), so that Back, Forward, Reload and a shared link show the same view: at start every control
// takes its value from the URL (an option it has; else the server's default, whatever the browser's form
// restoration put there), and each change replaces the URL's parameters (history.replaceState, no new entry).
//
// Exports
//   attachControls(form, table, urlPrefix) -> Controls  (form may be null: a table without controls); the table's
//                             headers mapped to a control's options sort by click (headersort.js); urlPrefix: ''
//                             on a table's own page, 'NAME.' on a page of several tables, null (an embedded table:
//                             the host page's URL is not its own) to leave the URL alone
//   Controls.present          whether the table has controls
//   Controls.chosen           the page URL chose other values than the defaults at start
//   Controls.query()          the chosen values that are not empty (`p.sort=city`): a table stream's URL
//   Controls.choice()         every control's value, empty ones too: a page's `reload` POST replaces the whole
//                             choice with it
//   Controls.onChange(fn)     calls fn() after the viewer changes a control (the search box: search.js, debounced)
//
// A table's search box (`<input type="search" name="p.q">` in the same form, docs/CONFIG.md "search") is one more
// control: its text is in the URL and the query like a select's value; search.js says when it changed.
import { attachHeaderSort } from './headersort.js';
import { watchSearch } from './search.js';

/** @typedef {ReturnType<typeof attachControls>} Controls */
/** @typedef {HTMLSelectElement | HTMLInputElement} Field a select, or the search box */

/** @type {WeakMap<HTMLInputElement, string>} each search box's value as the server rendered it (its `value` attribute
 *  follows the choice from then on: keepInBox) */
const renderedValue = new WeakMap();

/** @param {Field} select @returns {string} the value the server rendered as chosen */
function defaultValue(select) {
  if (select instanceof HTMLInputElement) {
    if (!renderedValue.has(select)) renderedValue.set(select, select.defaultValue);
    return renderedValue.get(select) || '';
  }
  const chosen = Array.from(select.options).find((option) => option.defaultSelected);
  return chosen ? chosen.value : (select.options[0] ? select.options[0].value : '');
}

/** Control characters (C0, DEL, C1): the server refuses a search with one (400). A `type=search` box strips only line
 *  breaks, so a pasted tab (or one a link's URL carries) would get through: each becomes a space. */
const controlCharacters = /[\u0000-\u001f\u007f-\u009f]/g;

/** @param {Field} field @returns {string} its value as sent: the search box's with control characters as spaces and
 *  without surrounding spaces */
function valueOf(field) {
  return field instanceof HTMLInputElement ? field.value.replace(controlCharacters, ' ').trim() : field.value;
}

/** @param {Field} select @param {string} value @returns {boolean} */
function hasOption(select, value) {
  // maxlength in Unicode scalars, as the server counts (TableSearch.swift), not UTF-16 units: an emoji is one
  if (select instanceof HTMLInputElement) return select.maxLength < 0 || [...value].length <= select.maxLength;
  return Array.from(select.options).some((option) => option.value === value);
}

/** The search box's `value` attribute follows its text (the choice): WebKit resets an `autocomplete=off` box to that
 *  attribute when it restores the page from the back/forward cache (a task after `pageshow`), which would show an empty
 *  box over the rows of the search. The server's own value is kept in renderedValue.
 *  @param {Field[]} selects */
function keepInBox(selects) {
  for (const select of selects) {
    if (select instanceof HTMLInputElement) { defaultValue(select); select.defaultValue = select.value; }
  }
}

/** Sets each control from the page URL's parameters (or to its default).
 *  @param {Field[]} selects @param {string} prefix @returns {boolean} some control is not at its default */
function readURL(selects, prefix) {
  const params = new URLSearchParams(window.location.search);
  let chosen = false;
  for (const select of selects) {
    const wanted = params.get(prefix + select.name);
    select.value = wanted !== null && hasOption(select, wanted) ? wanted : defaultValue(select);
    if (valueOf(select) !== defaultValue(select)) chosen = true;
  }
  keepInBox(selects);
  return chosen;
}

/** Writes the controls' values that differ from their defaults into the page URL, in place of the old ones.
 *  @param {Field[]} selects @param {string} prefix */
function writeURL(selects, prefix) {
  const url = new URL(window.location.href);
  for (const select of selects) {
    url.searchParams.delete(prefix + select.name);
    if (valueOf(select) !== defaultValue(select)) url.searchParams.set(prefix + select.name, valueOf(select));
  }
  if (url.href !== window.location.href) window.history.replaceState(window.history.state, '', url.href);
}

/** @param {HTMLFormElement | null} form @param {HTMLTableElement} table @param {string | null} [urlPrefix] */
export function attachControls(form, table, urlPrefix = null) {
  /** @returns {Field[]} */
  function selects() {
    if (!form) return [];
    // The selects first, then the search box: a page's `reload` names the controls in the same order as before.
    const boxes = /** @type {HTMLInputElement[]} */ (Array.from(form.querySelectorAll('input[type="search"]')));
    return [...Array.from(form.querySelectorAll('select')), ...boxes];
  }
  let chosen = false;
  /** @type {(() => void)[]} */
  const handlers = [];
  if (form && urlPrefix !== null) chosen = readURL(selects(), urlPrefix);
  /** The choice the table shows (or is starting over to): a change is only one when it differs. */
  let applied = encode(true);
  /** A control changed: when the choice is another one, into the URL, then the handlers. */
  function changed() {
    if (encode(true) === applied) return;
    applied = encode(true);
    keepInBox(selects());
    if (urlPrefix !== null) writeURL(selects(), urlPrefix);
    handlers.forEach((handler) => handler());
  }
  if (form) {
    attachHeaderSort(form, table);
    form.addEventListener('submit', (event) => event.preventDefault());
    form.addEventListener('change', (event) => { if (event.target instanceof HTMLSelectElement) changed(); });
    const box = /** @type {HTMLInputElement | null} */ (form.querySelector('input[type="search"]'));
    if (box) watchSearch(box, changed);
  }

  /** @param {boolean} withEmpty @returns {string} */
  function encode(withEmpty) {
    const query = new URLSearchParams();
    for (const select of selects()) {
      const value = valueOf(select);
      if (withEmpty || value !== '') query.set(select.name, value);
    }
    return query.toString();
  }

  /** @param {() => void} handler */
  function onChange(handler) { handlers.push(handler); }

  return { present: form !== null, chosen, query: () => encode(false), choice: () => encode(true), onChange };
}
