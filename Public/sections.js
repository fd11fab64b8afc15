// Rowstream sections: groups a sectioned table's rows (docs/PROTOCOL.md, "Sections") into one <tbody> per
// section, each with a header row (the section and its row count) and an optional footer row (the count or a
// sum). A batch whose rows continue the last section is appended to it. Imported by table.js; imports counts.js.
//
// Exports
//   attachSections(options) -> Sections
//     options.table    the #rs-table element (reads data-sections and data-section-label)
//     options.anchor   the <tbody> after which sections go (#rs-rows)
//     options.columns  () => number of columns (colspan)
//     options.format   (n) => string, for counts and sums
//   Sections.enabled            whether the table has sections
//   Sections.place(trs, keep)   puts the data rows of a fragment (header rows included) into sections;
//                               keep(tr) says whether a data row is new; returns the rows placed
//   Sections.insertTop(rows)    puts live-inserted rows at the top (into the first section when it matches)
//   Sections.refreshAll()       recounts every section (after rows were removed or replaced)
//   Sections.reset()            removes every section
//   Sections.setComplete(flag)  the list is complete (counts say "N rows") or not ("N loaded"): counts.js

import { sectionCountText } from './counts.js';

/** @typedef {{table: HTMLTableElement, anchor: HTMLElement, columns: () => number, format: (n: number) => string}}
 *    SectionsOptions
 *  @typedef {ReturnType<typeof attachSections>} Sections */

/** @param {SectionsOptions} options */
export function attachSections(options) {
  const footer = options.table.dataset.sections || '';
  const label = options.table.dataset.sectionLabel || 'Total';
  const enabled = footer !== '';
  /** @type {HTMLTableSectionElement | null} the last section, where continuing rows go */ let last = null;
  /** the whole list is loaded: a section's count is then all its rows */ let complete = false;

  /** @param {HTMLTableSectionElement} body @returns {HTMLTableRowElement[]} its data rows */
  function dataRows(body) {
    return /** @type {HTMLTableRowElement[]} */ (Array.from(body.rows))
      .filter((row) => !row.classList.contains('rs-section-head') && !row.classList.contains('rs-section-foot'));
  }

  /** A header row like the server's, for a section whose fragment carried none.
   *  @param {string} name @returns {HTMLTableRowElement} */
  function makeHeader(name) {
    const row = document.createElement('tr');
    row.className = 'rs-section-head';
    row.dataset.section = name;
    const cell = Object.assign(document.createElement('th'), { scope: 'rowgroup', colSpan: options.columns() });
    const title = Object.assign(document.createElement('span'), { className: 'rs-section-title',
      textContent: name === '' ? '(none)' : name });
    const count = Object.assign(document.createElement('span'), { className: 'rs-section-count' });
    cell.append(title, ' ', count);
    row.append(cell);
    return row;
  }

  /** @returns {HTMLTableRowElement} an empty footer row */
  function makeFooter() {
    const row = document.createElement('tr');
    row.className = 'rs-section-foot';
    row.append(Object.assign(document.createElement('td'), { colSpan: options.columns() }));
    return row;
  }

  /** A new, empty section named `name`.
   *  @param {string} name @param {HTMLTableRowElement | null} header @returns {HTMLTableSectionElement} */
  function makeSection(name, header) {
    const body = document.createElement('tbody');
    body.className = 'rs-section';
    body.dataset.section = name;
    body.append(header && header.dataset.section === name ? header : makeHeader(name));
    if (footer === 'count' || footer === 'sum') body.append(makeFooter());
    return body;
  }

  /** Appends `row` to `body`, above its footer row.
   *  @param {HTMLTableSectionElement} body
   *  @param {HTMLTableRowElement} row */
  function appendTo(body, row) {
    const foot = body.querySelector('tr.rs-section-foot');
    body.insertBefore(row, foot);
  }

  /** @param {HTMLTableRowElement[]} trs @param {(tr: HTMLTableRowElement) => boolean} keep
   *  @returns {HTMLTableRowElement[]} */
  function place(trs, keep) {
    /** @type {HTMLTableRowElement | null} */ let header = null;
    /** @type {HTMLTableRowElement[]} */ const placed = [];
    /** @type {Set<HTMLTableSectionElement>} */ const touched = new Set();
    for (const tr of trs) {
      if (tr.classList.contains('rs-section-head')) { header = tr; continue; }
      if (!keep(tr)) continue;
      const name = tr.dataset.section || '';
      if (!last || last.dataset.section !== name) {
        const body = makeSection(name, header);
        (last || options.anchor).after(body);
        last = body;
      }
      appendTo(last, tr);
      touched.add(last);
      placed.push(tr);
    }
    touched.forEach(refresh);
    return placed;
  }

  /** Live inserts: into the first section when the rows belong to it, else a new section on top.
   *  @param {HTMLTableRowElement[]} rows */
  function insertTop(rows) {
    for (const row of rows.slice().reverse()) {
      const name = row.dataset.section || '';
      let first = /** @type {HTMLTableSectionElement | null} */ (options.anchor.nextElementSibling);
      if (!first || !first.classList.contains('rs-section') || first.dataset.section !== name) {
        const body = makeSection(name, null);
        options.anchor.after(body);
        if (!last) last = body;
        first = body;
      }
      const head = first.querySelector('tr.rs-section-head');
      if (head) head.after(row); else first.prepend(row);
      refresh(first);
    }
  }

  /** Writes a section's count into its header and its footer.
   *  @param {HTMLTableSectionElement} body */
  function refresh(body) {
    const rows = dataRows(body);
    const count = body.querySelector('.rs-section-count');
    if (count) count.textContent = sectionCountText(rows.length, complete, options.format);
    const foot = body.querySelector('tr.rs-section-foot td');
    if (!foot) return;
    const total = footer === 'sum'
      ? rows.reduce((sum, row) => sum + (Number(row.dataset.value) || 0), 0) : rows.length;
    foot.textContent = label + ': ' + options.format(total);
  }

  /** The list became complete (each section's count then says "rows", not "loaded") or not (reloaded).
   *  @param {boolean} flag */
  function setComplete(flag) {
    if (flag === complete) return;
    complete = flag;
    for (const body of sectionBodies()) refresh(body);
  }

  /** Recounts every section; drops sections left empty. */
  function refreshAll() {
    for (const body of sectionBodies()) {
      if (dataRows(body).length === 0) {
        if (body === last) last = /** @type {HTMLTableSectionElement | null} */ (body.previousElementSibling?.classList.contains('rs-section') ? body.previousElementSibling : null);
        body.remove();
      } else refresh(body);
    }
  }

  /** @returns {HTMLTableSectionElement[]} */
  function sectionBodies() {
    return /** @type {HTMLTableSectionElement[]} */ (Array.from(options.table.querySelectorAll('tbody.rs-section')));
  }

  /** Removes every section. */
  function reset() { sectionBodies().forEach((body) => body.remove()); last = null; }

  return { enabled, place, insertTop, refreshAll, reset, setComplete };
}
