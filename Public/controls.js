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
//   Controls.onChange(fn)     calls fn() after the viewer changes a control
import { attachHeaderSort } from './headersort.js';

/** @typedef {ReturnType<typeof attachControls>} Controls */

/** @param {HTMLSelectElement} select @returns {string} the value the server rendered as chosen */
function defaultValue(select) {
  const chosen = Array.from(select.options).find((option) => option.defaultSelected);
  return chosen ? chosen.value : (select.options[0] ? select.options[0].value : '');
}

/** @param {HTMLSelectElement} select @param {string} value @returns {boolean} */
function hasOption(select, value) { return Array.from(select.options).some((option) => option.value === value); }

/** Sets each control from the page URL's parameters (or to its default).
 *  @param {HTMLSelectElement[]} selects @param {string} prefix @returns {boolean} some control is not at its default */
function readURL(selects, prefix) {
  const params = new URLSearchParams(window.location.search);
  let chosen = false;
  for (const select of selects) {
    const wanted = params.get(prefix + select.name);
    select.value = wanted !== null && hasOption(select, wanted) ? wanted : defaultValue(select);
    if (select.value !== defaultValue(select)) chosen = true;
  }
  return chosen;
}

/** Writes the controls' values that differ from their defaults into the page URL, in place of the old ones.
 *  @param {HTMLSelectElement[]} selects @param {string} prefix */
function writeURL(selects, prefix) {
  const url = new URL(window.location.href);
  for (const select of selects) {
    url.searchParams.delete(prefix + select.name);
    if (select.value !== defaultValue(select)) url.searchParams.set(prefix + select.name, select.value);
  }
  if (url.href !== window.location.href) window.history.replaceState(window.history.state, '', url.href);
}

/** @param {HTMLFormElement | null} form @param {HTMLTableElement} table @param {string | null} [urlPrefix] */
export function attachControls(form, table, urlPrefix = null) {
  /** @returns {HTMLSelectElement[]} */
  function selects() { return form ? Array.from(form.querySelectorAll('select')) : []; }
  let chosen = false;
  if (form && urlPrefix !== null) {
    const prefix = urlPrefix;
    chosen = readURL(selects(), prefix);
    form.addEventListener('change', () => writeURL(selects(), prefix));
  }
  if (form) attachHeaderSort(form, table);

  /** @param {boolean} withEmpty @returns {string} */
  function encode(withEmpty) {
    const query = new URLSearchParams();
    for (const select of selects()) if (withEmpty || select.value !== '') query.set(select.name, select.value);
    return query.toString();
  }

  /** @param {() => void} handler */
  function onChange(handler) {
    if (!form) return;
    form.addEventListener('submit', (event) => event.preventDefault());
    form.addEventListener('change', handler);
  }

  return { present: form !== null, chosen, query: () => encode(false), choice: () => encode(true), onChange };
}
