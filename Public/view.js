// Rowstream view: what the page script writes into the server-rendered table other than rows: skeleton rows,
// the footer row (end of list, or an error with Retry), the row count and the polite live region. No state
// of its own beyond the DOM. Imported by table.js.
//
// Exports
//   createView(table, skeletonRows, suffix, root) -> View   (skeletonRows 0: as many as the first paint;
//                                      suffix: '' on a table's own page, '--NAME' on a page of several tables,
//                                      where every id of the table ends in it; root: where its ids are, the
//                                      document or an embedded table's shadow root)
//   View: columnCount, formatCount, rowsText, endText, showCount, announce, statusText, ensureSkeletons,
//         removeSkeletons,
//         showEndRow, showErrorRow, removeErrorRow, clearFooter, parseRows (each documented below)

import { countText } from './counts.js';
import { createLocalizer } from './localize.js';

/** @typedef {ReturnType<typeof createView>} View */

/**
 * @param {HTMLTableElement} table
 * @param {number} skeletonRows
 * @param {string} [suffix]
 * @param {Document | ShadowRoot} [root]
 */
export function createView(table, skeletonRows, suffix = '', root = document) {
  /** @param {string} id @returns {HTMLElement} */
  function byId(id) {
    const element = root.getElementById(id + suffix);
    if (!element) throw new Error('rowstream: missing #' + id + suffix);
    return element;
  }

  /** Replaced by a fresh element whenever its skeletons go (see removeSkeletons). */
  let pendingBody = /** @type {HTMLTableSectionElement} */ (byId('rs-pending'));
  const footer = byId('rs-footer');
  const skeletonTemplate = /** @type {HTMLTemplateElement} */ (byId('rs-skeleton-row'));
  const status = byId('rs-status');
  const count = byId('rs-count');
  const skeletonCount = skeletonRows || pendingBody.rows.length
    || Math.min(Number(table.dataset.batchSize) || 10, 20);
  const numbers = new Intl.NumberFormat(document.documentElement.lang || undefined);
  /** Dates in the viewer's (or the table's) time zone, numbers in the table's locale (localize.js). */
  const localize = createLocalizer(table);
  /** Each column's cell classes, as the skeleton row carries them (`rs-c rs-FORMAT`): the page's stream asks for bare
   *  cells (`cells=bare`, docs/PROTOCOL.md), and parseRows gives each its column's. */
  const cellClasses = Array.from(skeletonTemplate.content.querySelectorAll('tr > td'), (cell) => cell.className);

  /** @param {number} n @returns {string} */
  function formatCount(n) { return numbers.format(n); }

  /** @returns {number} the number of columns shown, for colspan (columns.js marks a hidden one's header) */
  function columnCount() {
    if (!table.tHead) return 1;
    const cells = Array.from(table.tHead.rows[0].cells);
    return Math.max(1, cells.filter((cell) => !cell.hasAttribute('data-rs-hidden')).length);
  }

  /** @param {number} n @returns {string} e.g. "1 row", "1,234 rows" */
  function rowsText(n) { return formatCount(n) + (n === 1 ? ' row' : ' rows'); }

  /** @param {number} total @returns {string} */
  function endText(total) { return total === 0 ? 'No rows to show' : 'All ' + rowsText(total) + ' loaded'; }

  /** Shows the number of rows in #rs-count and data-count: "150 of 2,500", "150 so far" or, complete, "150 rows"
   *  (counts.js); data-total holds the upstream's total when known.
   *  @param {number} shown @param {boolean} known @param {number | null} [total] @param {boolean} [complete] */
  function showCount(shown, known, total = null, complete = true) {
    table.dataset.count = String(shown);
    if (total === null) delete table.dataset.total; else table.dataset.total = String(total);
    count.textContent = known ? countText(shown, total, complete, formatCount) : '';
  }

  /** @param {string} message Polite live-region text (one announcement per batch). */
  function announce(message) { status.textContent = message; }

  /** @returns {string} what the live region says now */
  function statusText() { return status.textContent || ''; }

  /** Shows one batch of skeleton rows in #rs-pending unless some are shown; first a skeleton section header
   *  when `withHeader` (a sectioned table with no rows yet) and the page has its template.
   *  @param {boolean} [withHeader] */
  function ensureSkeletons(withHeader) {
    if (pendingBody.rows.length > 0) return;
    const rows = document.createDocumentFragment();
    const header = /** @type {HTMLTemplateElement | null} */ (root.getElementById('rs-skeleton-section' + suffix));
    if (withHeader && header) rows.append(header.content.cloneNode(true));
    for (let i = 0; i < skeletonCount; i += 1) rows.append(skeletonTemplate.content.cloneNode(true));
    pendingBody.append(rows);
  }

  /** Removes every skeleton row by swapping in a fresh, empty #rs-pending. Emptying the old one in place
   *  would make the browser see one element jump down the page (the rows arrive above it) and count it as
   *  layout shift; a new element is new content, not a shift. */
  function removeSkeletons() {
    if (pendingBody.rows.length === 0) return;
    const fresh = /** @type {HTMLTableSectionElement} */ (pendingBody.cloneNode(false));
    pendingBody.replaceWith(fresh);
    pendingBody = fresh;
  }

  /** @template {keyof HTMLElementTagNameMap} K
   *  @param {K} tag @param {Partial<HTMLElementTagNameMap[K]>} props @returns {HTMLElementTagNameMap[K]} */
  function make(tag, props) { return Object.assign(document.createElement(tag), props); }

  /** Replaces the footer with one full-width row.
   *  @param {string} id @param {Node[]} content */
  function showFooterRow(id, content) {
    const cell = make('td', { colSpan: columnCount() });
    const row = make('tr', { id: id + suffix, className: id });
    cell.append(...content);
    row.append(cell);
    footer.replaceChildren(row);
  }

  /** @param {number} total */
  function showEndRow(total) {
    showFooterRow('rs-end', [document.createTextNode(endText(total) + ' - end of list.')]);
  }

  /** Removes the error row, if shown. */
  function removeErrorRow() { footer.querySelector('tr.rs-error')?.remove(); }

  /** Error text goes in with textContent only, never as HTML.
   *  @param {string} message @param {(() => void) | null} retry */
  function showErrorRow(message, retry) {
    const text = make('span', { className: 'rs-error-text', textContent: message });
    const button = make('button', { id: 'rs-retry' + suffix, className: 'rs-retry', type: 'button', textContent: 'Retry' });
    if (retry) button.addEventListener('click', retry);
    showFooterRow('rs-error', retry ? [text, button] : [text]);
  }

  /** Empties the footer. */
  function clearFooter() { footer.replaceChildren(); }

  /** Parses trusted, server-escaped row HTML in table context; a bare cell (no class) gets its column's classes, as
   *  the server would have written them; a row spanning the columns (a section's header) spans the shown ones; its
   *  dates and numbers as the viewer reads them.
   *  @param {string} html @returns {HTMLTableRowElement[]} */
  function parseRows(html) {
    const template = document.createElement('template');
    template.innerHTML = html;
    for (const row of /** @type {NodeListOf<HTMLTableRowElement>} */ (template.content.querySelectorAll('tr[data-key]'))) {
      const cells = row.cells;
      for (let i = 0; i < cells.length && i < cellClasses.length; i++) {
        if (!cells[i].hasAttribute('class')) cells[i].className = cellClasses[i];
      }
    }
    const shown = columnCount();
    if (table.tHead && shown !== table.tHead.rows[0].cells.length) {
      for (const cell of Array.from(template.content.querySelectorAll('td[colspan], th[colspan]'))) {
        /** @type {HTMLTableCellElement} */ (cell).colSpan = shown;
      }
    }
    localize(template.content);
    return Array.from(template.content.querySelectorAll('tr'));
  }

  return { columnCount, formatCount, rowsText, endText, showCount, announce, statusText, ensureSkeletons,
    removeSkeletons, showEndRow, showErrorRow, removeErrorRow, clearFooter, parseRows };
}
