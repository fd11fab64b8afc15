// Rowstream column shape (columnshape.js): which columns of a table are hidden and how wide the viewer made them,
// remembered in the browser (localStorage, per page and table), and the CSS that draws it. The rules go in a
// constructed stylesheet adopted by the table's document or shadow root: CSSOM, which the page's CSP allows (no
// `style` attribute, no `<style>` element; docs/SECURITY.md). Every rule finds its table by `data-table` and its
// column by place (`col:nth-child(N)`, each row's Nth cell), so skeleton rows, rows that stream in later, live
// inserts and section rows all follow it at once: a skeleton is exactly as wide as the row that replaces it.
// Pure functions and one small store; imported by columns.js. Main thread only, like every page module.
//
// The first paint has the stored shapes already: columnsfirst.js, a render-blocking module in the page's head, calls
// adoptStored() before the body is drawn (Chromium honours `blocking="render"`; elsewhere it runs as early as a
// module can), and each table's columns.js takes its sheet over (tableSheet()).
//
// Exports
//   adoptStored()                        adopts one sheet per table of this page with a stored shape (the record
//                                        carries what the rules need of the table: RuleOptions)
//   tableSheet(root, name) -> CSSStyleSheet   table `name`'s sheet: the one `root` has for it already (the table
//                                        mounted again), adoptStored()'s, or a new one adopted by `root`
//   loadShape(key, titles) -> {shape, options}   the stored shape of a table whose headers are `titles` (an empty
//                                        shape when none is stored, or stored for other columns) and the options
//                                        stored with it (null: none)
//   saveShape(key, titles, shape, options)   stores it (removes it when empty); storage errors are ignored
//   shapeKey(name)                       the storage key of table `name` on this page
//   tableSelector(name)                  the selector of table `name`
//   shapeRules(selector, shape, options) -> string   the CSS of `shape` for the table `selector` finds
//   isEmptyShape(shape)
//   minimumWidth                         the narrowest a column may be made, in px

/** @typedef {{hidden: number[], widths: Record<string, number>}} Shape hidden: columns' places (0-based);
 *    widths: px by column place (every shown column has one once any column was resized)
 *  @typedef {{grid: boolean, cardFields: number, border: number, titleRepeat: number[]}} RuleOptions grid: cards;
 *    cardFields: the fields a card shows before hiding (its height); border: the table's left and right border in
 *    px (its width counts them); titleRepeat: card fields the server already hides (the card's title, repeated) */

export const minimumWidth = 48;
const prefix = 'rowstream.columns:';

/** @param {string} name @returns {string} */
export function shapeKey(name) { return prefix + location.pathname + ':' + name; }

/** @param {string} name @returns {string} */
export function tableSelector(name) { return 'table.rs-table[data-table="' + CSS.escape(name) + '"]'; }

/** Sheets adoptStored() made, by table name, until the table's columns.js takes its own. */
/** @type {Map<string, CSSStyleSheet>} */ const stored = new Map();

export function adoptStored() {
  const start = prefix + location.pathname + ':';
  /** @type {string[]} */ const keys = [];
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (key !== null && key.startsWith(start)) keys.push(key);
    }
  } catch { return; }
  for (const key of keys) {
    const record = readRecord(key);
    if (!record || !record.options) continue;
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(shapeRules(tableSelector(key.slice(start.length)), record.shape, record.options));
    stored.set(key.slice(start.length), sheet);
  }
  if (stored.size > 0) document.adoptedStyleSheets = [...document.adoptedStyleSheets, ...stored.values()];
}

/** Each root's sheets by table name: a table mounted again in the same root (an embedded table moved in the page,
 *  or given another src) takes its sheet over, so no old sheet's rules stay behind and still match. */
/** @type {WeakMap<Document | ShadowRoot, Map<string, CSSStyleSheet>>} */ const adopted = new WeakMap();

/** @param {Document | ShadowRoot} root @param {string} name @returns {CSSStyleSheet} */
export function tableSheet(root, name) {
  let sheets = adopted.get(root);
  if (!sheets) { sheets = new Map(); adopted.set(root, sheets); }
  const known = sheets.get(name);
  if (known && root.adoptedStyleSheets.includes(known)) return known;
  const early = root === document ? stored.get(name) : undefined;
  if (early) stored.delete(name);
  const sheet = early || new CSSStyleSheet();
  if (!early) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  sheets.set(name, sheet);
  return sheet;
}

/** @param {Shape} shape @returns {boolean} */
export function isEmptyShape(shape) { return shape.hidden.length === 0 && Object.keys(shape.widths).length === 0; }

/** @returns {Shape} */
function emptyShape() { return { hidden: [], widths: {} }; }

/** @param {unknown} value @returns {value is number} */
function isPlace(value) { return typeof value === 'number' && Number.isInteger(value) && value >= 0; }

/** @param {string} key @param {string[]} titles
 *  @returns {{shape: Shape, options: RuleOptions | null}} */
export function loadShape(key, titles) {
  const record = readRecord(key);
  if (!record || record.titles.join('\u0000') !== titles.join('\u0000')) return { shape: emptyShape(), options: null };
  return { shape: record.shape, options: record.options };
}

/** @param {unknown} value @returns {RuleOptions | null} */
function ruleOptions(value) {
  if (!value || typeof value !== 'object') return null;
  const o = /** @type {{grid?: unknown, cardFields?: unknown, border?: unknown, titleRepeat?: unknown}} */ (value);
  if (typeof o.grid !== 'boolean' || typeof o.cardFields !== 'number' || typeof o.border !== 'number'
      || !Array.isArray(o.titleRepeat)) return null;
  return { grid: o.grid, cardFields: o.cardFields, border: o.border, titleRepeat: o.titleRepeat.filter(isPlace) };
}

/** @param {string} key @returns {{titles: string[], shape: Shape, options: RuleOptions | null} | null} */
function readRecord(key) {
  /** @type {unknown} */ let value = null;
  try { value = JSON.parse(localStorage.getItem(key) || 'null'); } catch { return null; }
  if (!value || typeof value !== 'object') return null;
  const record = /** @type {{titles?: unknown, hidden?: unknown, widths?: unknown, options?: unknown}} */ (value);
  if (!Array.isArray(record.titles) || !record.titles.every((title) => typeof title === 'string')) return null;
  const titles = /** @type {string[]} */ (record.titles);
  const shape = shapeOf(record, titles.length);
  return shape ? { titles, shape, options: ruleOptions(record.options) } : null;
}

/** @param {{hidden?: unknown, widths?: unknown}} record @param {number} count the table's columns
 *  @returns {Shape | null} */
function shapeOf(record, count) {
  const hidden = Array.isArray(record.hidden)
    ? record.hidden.filter((place) => isPlace(place) && place < count) : [];
  /** @type {Record<string, number>} */ const widths = {};
  if (record.widths && typeof record.widths === 'object') {
    for (const [place, width] of Object.entries(record.widths)) {
      if (isPlace(Number(place)) && Number(place) < count && typeof width === 'number' && Number.isFinite(width)) {
        widths[place] = Math.max(minimumWidth, Math.round(width));
      }
    }
  }
  if (hidden.length >= count) return null;      // never every column hidden
  return { hidden: Array.from(new Set(hidden)).sort((a, b) => a - b), widths };
}

/** @param {string} key @param {string[]} titles @param {Shape} shape @param {RuleOptions} options */
export function saveShape(key, titles, shape, options) {
  try {
    if (isEmptyShape(shape)) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify({ titles, hidden: shape.hidden, widths: shape.widths, options }));
  } catch { /* storage full or refused (private mode): the shape lasts until the page goes */ }
}

/** The CSS of `shape`: a hidden column's `<col>` and its cell in every row (not a section's header or footer row,
 *  nor a spacer, which span the row: columns.js keeps their colspan at the number of shown columns); a card's
 *  field, and the card's height; a resized table's column widths, and the table as wide as they are.
 *  @param {string} table a selector of the table @param {Shape} shape @param {RuleOptions} options
 *  @returns {string} */
export function shapeRules(table, shape, options) {
  const rules = [];
  const rows = table + '>tbody>tr:not(.rs-card):not(.rs-section-head):not(.rs-section-foot):not(.rs-gap)';
  for (const place of shape.hidden) {
    const n = place + 1;
    if (options.grid) {
      rules.push(table + ' tr.rs-card>td:nth-child(' + (n + 2) + '){display:none}');
    } else {
      rules.push(table + '>colgroup>col:nth-child(' + n + '){display:none}');
      rules.push(table + '>thead>tr>:nth-child(' + n + '),' + rows + '>:nth-child(' + n + '){display:none}');
    }
  }
  if (options.grid) {
    const fields = options.cardFields - shape.hidden.filter((place) => !options.titleRepeat.includes(place)).length;
    if (shape.hidden.length > 0) rules.push(table + '{--rs-card-fields:' + Math.max(0, fields) + '}');
    return rules.join('\n');
  }
  const places = Object.keys(shape.widths).map(Number).filter((place) => !shape.hidden.includes(place));
  if (places.length > 0) {
    let sum = options.border;
    for (const place of places) {
      const width = shape.widths[String(place)];
      sum += width;
      rules.push(table + '>colgroup>col:nth-child(' + (place + 1) + '){width:' + width + 'px}');
    }
    rules.push(table + '{width:' + sum + 'px;min-width:0}');
  }
  return rules.join('\n');
}
