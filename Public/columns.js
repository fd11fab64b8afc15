// Rowstream column control (columns.js): the viewer hides, shows and resizes a table's columns, and the table keeps
// that shape on this page in this browser (columnshape.js stores it and writes its CSS). Imported by table.js.
//
//   - A "Columns" button (`#rs-columns-button`, in the page's markup so nothing moves when this starts) opens a
//     panel of one checkbox per column and "Reset columns"; Escape closes it and focus goes back to the button; a
//     click elsewhere or Tab past its last control closes it too. Hiding or showing a column is announced in the
//     table's polite live region.
//   - Each header (not a grid's: cards have none) gets a resize handle at its right edge: a focusable
//     `role="separator"` with its width in `aria-valuenow`. Drag it, or focus it and press Left / Right (16 px;
//     with Shift 64 px), Home (its narrowest). The first resize fixes every shown column at its width then, and the
//     table becomes as wide as its columns: the box scrolls sideways when they are wider than it.
//   - Section header and footer rows and spacers span the shown columns: their colspan follows (fixSpans();
//     rows parsed later: view.js's parseRows).
//
// Exports
//   attachColumns(options) -> Columns
//     options.table     the table element      options.root   its document or shadow root
//     options.suffix    element ids' suffix    options.announce (text) => void, the table's polite live region
//   Columns.shown()          the number of shown columns (colspan of a row spanning them)
//   Columns.fixSpans(rows)   gives every spanning cell of `rows` that colspan
//   Columns.stop()           removes its listeners from `root` (table.js's detach(): the table left its page)
import { loadShape, minimumWidth, saveShape, shapeKey, shapeRules, tableSelector, tableSheet } from './columnshape.js';

/** @typedef {import('./columnshape.js').Shape} Shape
 *  @typedef {{table: HTMLTableElement, root: Document | ShadowRoot, suffix: string, announce: (text: string) => void}}
 *    ColumnsOptions
 *  @typedef {ReturnType<typeof attachColumns>} Columns */

const step = 16;
const maximumWidth = 2000;

/** @param {ColumnsOptions} options */
export function attachColumns(options) {
  const { table, root, suffix, announce } = options;
  const name = table.dataset.table || '';
  const grid = table.classList.contains('rs-grid');
  const headers = table.tHead && table.tHead.rows.length > 0 ? Array.from(table.tHead.rows[0].cells) : [];
  const titles = headers.map((cell) => (cell.textContent || '').trim());
  const key = shapeKey(name);
  const selector = tableSelector(name);
  const sheet = tableSheet(root, name);
  /** Aborted by stop(): the listeners on `root`, which outlives the table (an embedded table's shadow root). */
  const detached = new AbortController();
  const early = sheet.cssRules.length > 0;     // the stored shape is drawn already (columnsfirst.js)
  const loaded = loadShape(key, titles);
  let shape = loaded.shape;
  if (early && !loaded.options) sheet.replaceSync('');   // drawn for other columns: measure the server's table
  /** What the rules need of the table as the server drew it: measured with no rule of ours, else as stored. */
  const ruleOptions = early && loaded.options ? loaded.options : measureOptions();

  /** @returns {import('./columnshape.js').RuleOptions} */
  function measureOptions() {
    const style = getComputedStyle(table);
    const border = (parseFloat(style.borderLeftWidth) || 0) + (parseFloat(style.borderRightWidth) || 0);
    const card = table.querySelector('tr.rs-card');
    const titleRepeat = card ? titles.map((_, place) => place).filter((place) => {
      const cell = /** @type {HTMLTableRowElement} */ (card).cells[place + 2];
      return cell !== undefined && getComputedStyle(cell).display === 'none';
    }) : [];
    const cardFields = Number(style.getPropertyValue('--rs-card-fields')) || titles.length;
    return { grid, border, titleRepeat, cardFields };
  }

  /** @returns {number} */
  function shown() { return Math.max(1, titles.length - shape.hidden.length); }

  /** @param {ParentNode} rows */
  function fixSpans(rows) {
    if (grid) return;
    for (const cell of Array.from(rows.querySelectorAll('td[colspan], th[colspan]'))) {
      /** @type {HTMLTableCellElement} */ (cell).colSpan = shown();
    }
  }

  /** Draws the shape, and keeps the markup that depends on it in step. */
  function apply() {
    sheet.replaceSync(shapeRules(selector, shape, ruleOptions));
    headers.forEach((cell, place) => cell.toggleAttribute('data-rs-hidden', shape.hidden.includes(place)));
    fixSpans(table);
    const template = /** @type {HTMLTemplateElement | null} */ (root.getElementById('rs-skeleton-section' + suffix));
    if (template) fixSpans(template.content);
    for (const handle of handles) handle.setAttribute('aria-valuenow', String(Math.round(widthOf(handle))));
    if (menu) menu.sync();
  }

  function save() { saveShape(key, titles, shape, ruleOptions); }

  // ---- Hide and show ---------------------------------------------------------------------

  /** @param {number} place @param {boolean} visible @returns {boolean} whether it changed */
  function setShown(place, visible) {
    if (visible === !shape.hidden.includes(place)) return false;
    if (!visible && shown() <= 1) { announce('At least one column stays shown.'); return false; }
    shape.hidden = visible ? shape.hidden.filter((p) => p !== place) : [...shape.hidden, place].sort((a, b) => a - b);
    if (visible && Object.keys(shape.widths).length > 0 && !(String(place) in shape.widths)) {
      shape.widths[String(place)] = 10 * step;           // a resized table gives a column shown again a width
    }
    apply();
    save();
    announce(titles[place] + ' column ' + (visible ? 'shown' : 'hidden') + '.');
    return true;
  }

  function reset() {
    shape = { hidden: [], widths: {} };
    apply();
    save();
    announce('Columns reset: every column shown at its own width.');
  }

  // ---- Resize ----------------------------------------------------------------------------

  /** @type {HTMLElement[]} */ const handles = [];

  /** @param {HTMLElement} handle @returns {number} the width of its column now, px */
  function widthOf(handle) {
    const place = Number(handle.dataset.place);
    return shape.widths[String(place)] || headers[place].getBoundingClientRect().width;
  }

  /** Every shown column keeps the width it has now (the first resize). */
  function fixWidths() {
    if (Object.keys(shape.widths).length > 0) return;
    headers.forEach((cell, place) => {
      if (!shape.hidden.includes(place)) shape.widths[String(place)] = Math.round(cell.getBoundingClientRect().width);
    });
  }

  /** @param {number} place @param {number} width px */
  function resize(place, width) {
    fixWidths();
    shape.widths[String(place)] = Math.min(maximumWidth, Math.max(minimumWidth, Math.round(width)));
    apply();
  }

  /** @param {HTMLTableCellElement} cell @param {number} place */
  function addHandle(cell, place) {
    const handle = document.createElement('span');
    handle.className = 'rs-resize';
    handle.tabIndex = 0;
    handle.dataset.place = String(place);
    handle.setAttribute('role', 'separator');
    handle.setAttribute('aria-orientation', 'vertical');
    handle.setAttribute('aria-label', 'Resize column ' + titles[place]);
    handle.setAttribute('aria-valuemin', String(minimumWidth));
    handle.setAttribute('aria-valuemax', String(maximumWidth));
    handle.addEventListener('keydown', (event) => {
      const by = event.shiftKey ? 4 * step : step;
      const now = widthOf(handle);
      let width = null;
      if (event.key === 'ArrowLeft') width = now - by;
      else if (event.key === 'ArrowRight') width = now + by;
      else if (event.key === 'Home') width = minimumWidth;
      if (width === null) return;
      event.preventDefault();
      resize(place, width);
      save();
    });
    handle.addEventListener('pointerdown', (event) => {
      if (event.button !== 0) return;
      event.preventDefault();
      const start = event.clientX;
      const from = widthOf(handle);
      try { handle.setPointerCapture(event.pointerId); } catch { /* a pointer the browser no longer has */ }
      handle.classList.add('rs-resizing');
      /** @param {PointerEvent} move */
      const moved = (move) => resize(place, from + move.clientX - start);
      const ended = () => {
        handle.removeEventListener('pointermove', moved);
        handle.removeEventListener('pointerup', ended);
        handle.removeEventListener('pointercancel', ended);
        handle.classList.remove('rs-resizing');
        save();
      };
      handle.addEventListener('pointermove', moved);
      handle.addEventListener('pointerup', ended);
      handle.addEventListener('pointercancel', ended);
    });
    handle.addEventListener('click', (event) => event.stopPropagation());
    cell.append(handle);
    handles.push(handle);
  }

  if (!grid) headers.forEach(addHandle);

  // ---- The Columns panel -----------------------------------------------------------------

  const menu = makeMenu();

  /** The panel beside the page's Columns button; null when the page has no such button (an older index.html). */
  function makeMenu() {
    const found = /** @type {HTMLButtonElement | null} */ (root.getElementById('rs-columns-button' + suffix));
    const place = root.getElementById('rs-columns' + suffix);
    if (!found || !place || titles.length === 0) return null;
    const button = found;
    const holder = place;
    const panel = document.createElement('div');
    panel.id = 'rs-columns-menu' + suffix;
    panel.className = 'rs-columns-menu';
    panel.hidden = true;
    panel.setAttribute('role', 'group');
    panel.setAttribute('aria-label', 'Columns shown');
    const boxes = titles.map((title, place) => {
      const label = document.createElement('label');
      const box = Object.assign(document.createElement('input'), { type: 'checkbox', checked: true });
      box.dataset.place = String(place);
      box.addEventListener('change', () => { if (!setShown(place, box.checked)) box.checked = !box.checked; });
      label.append(box, document.createTextNode(' ' + title));
      panel.append(label);
      return box;
    });
    const resetButton = Object.assign(document.createElement('button'),
      { type: 'button', className: 'rs-button rs-columns-reset', textContent: 'Reset columns' });
    resetButton.addEventListener('click', reset);
    panel.append(resetButton);
    holder.append(panel);
    button.setAttribute('aria-controls', panel.id);
    button.setAttribute('aria-expanded', 'false');

    /** @param {boolean} open @param {boolean} [refocus] */
    function setOpen(open, refocus = false) {
      panel.hidden = !open;
      button.setAttribute('aria-expanded', String(open));
      if (open) boxes[0].focus();
      else if (refocus) button.focus();
    }
    button.addEventListener('click', () => setOpen(panel.hidden));
    holder.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && !panel.hidden) { event.preventDefault(); setOpen(false, true); }
    });
    holder.addEventListener('focusout', (event) => {   // Tab past the panel's last control closes it
      if (!panel.hidden && event.relatedTarget instanceof Node && !holder.contains(event.relatedTarget)) setOpen(false);
    });
    root.addEventListener('pointerdown', (event) => {
      if (!panel.hidden && event.target instanceof Node && !holder.contains(event.target)) setOpen(false);
    }, { signal: detached.signal });
    return { sync() { boxes.forEach((box, place) => { box.checked = !shape.hidden.includes(place); }); } };
  }

  if (early || shape.hidden.length > 0 || Object.keys(shape.widths).length > 0) apply();
  else for (const handle of handles) handle.setAttribute('aria-valuenow', String(Math.round(widthOf(handle))));
  /** The table is taken out of its page (an embedded table disconnected): its listeners on the root go. */
  function stop() { detached.abort(); }

  return { shown, fixSpans, stop };
}
