// Rowstream controls: a table's sort and filter form (`<form class="rs-controls">`, one `<select name="p.PARAM">`
// per control, docs/PROTOCOL.md "Sort and filter controls"), read as URL parameters. Imported by table.js.
//
// Exports
//   attachControls(form, table) -> Controls  (form may be null: a table without controls); the table's headers
//                             mapped to a control's options sort by click (headersort.js)
//   Controls.present          whether the table has controls
//   Controls.query()          the chosen values that are not empty (`p.sort=city`): a table stream's URL
//   Controls.choice()         every control's value, empty ones too: a page's `reload` POST replaces the whole
//                             choice with it
//   Controls.onChange(fn)     calls fn() after the viewer changes a control
import { attachHeaderSort } from './headersort.js';

/** @typedef {ReturnType<typeof attachControls>} Controls */

/** @param {HTMLFormElement | null} form @param {HTMLTableElement} table */
export function attachControls(form, table) {
  if (form) attachHeaderSort(form, table);
  /** @returns {HTMLSelectElement[]} */
  function selects() { return form ? Array.from(form.querySelectorAll('select')) : []; }

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

  return { present: form !== null, query: () => encode(false), choice: () => encode(true), onChange };
}
