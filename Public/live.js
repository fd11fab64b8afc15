// Rowstream live updates (docs/PROTOCOL.md, "Live updates"): applies a live table's keyed `insert`, `update` and
// `remove` events to the rows shown. Updated rows flash briefly (not under prefers-reduced-motion); rows inserted
// above the viewport keep what the viewer is looking at where it is. Imported by table.js.
//
// Exports
//   attachLive(options) -> Live
//     options.table      the #rs-table element
//     options.rowsBody   the <tbody> of plain rows (#rs-rows)
//     options.sections   the Sections of sections.js (enabled or not)
//     options.parseRows  (html) => HTMLTableRowElement[]
//     options.scroller   the element that scrolls the table (a page's scroll box); null: the window
//   Live.insert(html)  rows to put above every row (a key already shown is updated instead); returns the
//                      number of rows added
//   Live.update(html)  rows replacing the shown rows with the same data-key; returns the count
//   Live.remove(keys)  removes the shown rows with these keys; returns the count
//   Live.dropShown(rows)  before a batch is appended: removes live-inserted rows the batch brings again;
//                         returns how many
/** @typedef {import('./sections.js').Sections} Sections
 *  @typedef {{table: HTMLTableElement, rowsBody: HTMLElement, sections: Sections,
 *             parseRows: (html: string) => HTMLTableRowElement[], scroller: HTMLElement | null}} LiveOptions
 *  @typedef {ReturnType<typeof attachLive>} Live */

/** @param {LiveOptions} options */
export function attachLive(options) {
  const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');
  const scroller = options.scroller;

  /** @param {string} key @returns {HTMLTableRowElement | null} */
  function shownRow(key) {
    const selector = 'tr[data-key="' + CSS.escape(key) + '"]:not(.rs-skeleton)';
    return /** @type {HTMLTableRowElement | null} */ (options.table.querySelector(selector));
  }

  /** Marks a row as changed: the CSS flash, unless the viewer asked for reduced motion.
   *  @param {HTMLTableRowElement} row */
  function flash(row) {
    row.classList.add('rs-updated');
    if (reducedMotion.matches) return;
    row.classList.add('rs-flash');
    row.addEventListener('animationend', () => row.classList.remove('rs-flash'), { once: true });
  }

  /** The first row at or below the top of the viewport: what the viewer is looking at.
   *  @returns {Element | null} */
  function anchorRow() {
    const rows = options.table.querySelectorAll('tbody tr');
    const top = scroller ? scroller.getBoundingClientRect().top : 0;
    for (const row of rows) if (row.getBoundingClientRect().bottom > top) return row;
    return null;
  }

  /** Runs `change`, then scrolls by however far it moved the anchor row, so nothing on screen moves.
   *  @param {() => void} change */
  function keepingScroll(change) {
    const anchor = (scroller ? scroller.scrollTop : window.scrollY) > 0 ? anchorRow() : null;
    const before = anchor ? anchor.getBoundingClientRect().top : 0;
    change();
    if (!anchor || !anchor.isConnected) return;
    const moved = anchor.getBoundingClientRect().top - before;
    if (moved !== 0) (scroller || window).scrollBy(0, moved);
  }

  /** @param {HTMLTableRowElement} old @param {HTMLTableRowElement} row */
  function replace(old, row) {
    if (old.dataset.index !== undefined) row.dataset.index = old.dataset.index;
    if (old.dataset.live !== undefined) row.dataset.live = '';
    old.replaceWith(row);
    flash(row);
  }

  /** @param {string} html @returns {number} */
  function update(html) {
    let count = 0;
    keepingScroll(() => {
      for (const row of options.parseRows(html)) {
        const old = shownRow(row.dataset.key || '');
        if (old) { replace(old, row); count += 1; }
      }
      options.sections.refreshAll();
    });
    return count;
  }

  /** @param {string} html @returns {number} rows added (a key already shown is an update) */
  function insert(html) {
    /** @type {HTMLTableRowElement[]} */ const fresh = [];
    let count = 0;
    keepingScroll(() => {
      for (const row of options.parseRows(html)) {
        const old = shownRow(row.dataset.key || '');
        if (old) replace(old, row);
        else { row.dataset.live = ''; fresh.push(row); count += 1; }
      }
      if (options.sections.enabled) options.sections.insertTop(fresh);
      else options.rowsBody.prepend(...fresh);
      fresh.forEach(flash);
      options.sections.refreshAll();
    });
    return count;
  }

  /** @param {string[]} keys @returns {number} */
  function remove(keys) {
    let count = 0;
    keepingScroll(() => {
      for (const key of keys) {
        const row = shownRow(key);
        if (row) { row.remove(); count += 1; }
      }
      options.sections.refreshAll();
    });
    return count;
  }

  /** A batch brings rows by key: a live-inserted copy shown already gives way (the later wins).
   *  @param {HTMLTableRowElement[]} rows @returns {number} */
  function dropShown(rows) {
    let count = 0;
    for (const row of rows) {
      if (row.dataset.index === undefined) continue;
      const old = shownRow(row.dataset.key || '');
      if (old && old.dataset.live !== undefined) { old.remove(); count += 1; }
    }
    return count;
  }

  return { insert, update, remove, dropShown };
}
