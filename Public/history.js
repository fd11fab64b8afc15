// Rowstream place (history.js): Back, Forward and Reload keep the reader's place. When the page is left (`pagehide`,
// or hidden), it writes into sessionStorage, under an id kept in its history entry's state, every table's rows as
// the stream delivered them, batch by batch with each batch's event id (its resume token), the page stream's id and
// where the reader was (the first row in view and its offset, each scroll box's position). When the same history
// entry is loaded again (Back, Forward, Reload; the back/forward cache did not keep the page), the rows are put back
// through the table's own `rows` handling before the stream opens, the stream resumes after the last of them
// (docs/PROTOCOL.md, "Resume": nothing fetched again, no row twice, none lost) and the scroll goes back to the same
// first row. A page the back/forward cache kept needs none of this (visibility.js resumes its stream).
//
// Not put back: a live table (its changes carry no position, so its rows might be stale: it starts over at the
// current rows), a sectioned table, a table with pruned batches, more than `maxRows` rows (config.js); on a page
// of several tables such a table starts over alone (table.js startOver on its next session). A different URL
// (other controls' choice) or a new history entry (a link followed again) starts fresh. Imported by app.js.
//
// Exports
//   keepPlace(options) -> Place   (nothing is kept when config.restorePlace is false or sessionStorage is refused)
//     options.stream   the page's connection (connection.js): position(), onEvent()
//     options.tables   the page's table controllers (table.js)
//     options.scroller (table) => its scroll box on a page of several tables; null: the window
//     options.maxRows  rows kept at most per table
//     options.multi    a page of several tables (one stream, one id for all)
//   Place.restore() -> string   puts the saved rows back (call before stream.start); the page stream's id to
//                               resume after ('' for none, and on a table's own page: its table keeps its token)
//   Place.scroll()              puts the scroll position back (call once the rows are in)
// DOM and timers only, on the page's one thread.

/**
 * @typedef {import('./table.js').Table} Table
 * @typedef {{id: string, first: number}} BatchMark a batch as it arrived: its event id and its first row's index
 * @typedef {{origin: string, batches: {id: string, html: string}[], complete: boolean}} SavedTable
 * @typedef {{href: string, page: string, tables: Record<string, SavedTable>, anchor: {index: number, top: number} |
 *            null, boxes: Record<string, number>, skipped: string[]}} Saved
 * @typedef {{stream: import('./connection.js').Stream, tables: Table[], scroller: (table: Table) => HTMLElement | null,
 *            maxRows: number, multi: boolean}} PlaceOptions
 */

const prefix = 'rowstream:place:';
/** Places kept per tab at most (oldest dropped): one per history entry of a Rowstream page. */
const keptPlaces = 20;
const lastBatchMarker = '<!--rs:last-->';

/** @returns {Storage | null} the tab's sessionStorage, or null when the browser refuses it */
function storage() {
  try { return window.sessionStorage; } catch { return null; }
}

/** @returns {string} this history entry's id, made and stored in its state the first time */
function entryId() {
  const state = window.history.state;
  const current = state && typeof state === 'object' ? state : {};
  if (typeof current.rowstreamPlace === 'string') return current.rowstreamPlace;
  const id = Date.now().toString(36) + '-' + Math.random().toString(36).slice(2);
  window.history.replaceState(Object.assign({}, current, { rowstreamPlace: id }), '');
  return id;
}

/** @returns {string} the URL part a saved place must match */
function here() { return window.location.pathname + window.location.search; }

/** @param {HTMLTableElement} element @returns {HTMLTableRowElement[]} the rows a stream delivered, in order */
function deliveredRows(element) {
  return /** @type {HTMLTableRowElement[]} */ (Array.from(
    element.querySelectorAll('tbody tr[data-index]:not(.rs-skeleton):not([data-live])')));
}

/** @param {string} html @returns {number} the data-index of a `rows` fragment's first row (-1: none) */
function firstIndex(html) {
  const match = /data-index="(\d+)"/.exec(html);
  return match ? Number(match[1]) : -1;
}

/** A batch arrived: a new mark; one without rows (the end) only moves the last mark's id.
 *  @param {BatchMark[]} marks @param {string} id @param {number} first */
function mark(marks, id, first) {
  if (first < 0 && marks.length > 0) marks[marks.length - 1].id = id;
  else if (first >= 0) marks.push({ id, first });
}

/** @param {PlaceOptions} options */
export function keepPlace(options) {
  const { stream, tables } = options;
  const store = storage();
  const id = store ? entryId() : '';
  /** What each table's stream delivered; `last`: its final batch (the one ending with the marker) among them.
   *  @type {Map<string, {origin: string, marks: BatchMark[], live: boolean, last: boolean}>} */
  const seen = new Map(tables.map((table) => [table.name, { origin: '', marks: /** @type {BatchMark[]} */ ([]),
    live: false, last: false }]));
  /** @type {Saved | null} */ let saved = null;

  /** @returns {Saved | null} */
  function load() {
    if (!store) return null;
    try {
      const value = /** @type {Saved} */ (JSON.parse(store.getItem(prefix + id) || 'null'));
      return value && value.href === here() ? value : null;
    } catch {
      return null;
    }
  }

  /** @param {Table} table @returns {SavedTable | null} its rows by batch, or null when it cannot be put back */
  function saveTable(table) {
    const mine = seen.get(table.name);
    if (!mine || mine.live || mine.marks.length === 0 || table.table.dataset.sections !== undefined) return null;
    if (table.pruning().pruned > 0) return null;
    const rows = deliveredRows(table.table);
    if (rows.length === 0 || rows.length > options.maxRows) return null;
    const batches = mine.marks.map((mark, i) => {
      const end = i + 1 < mine.marks.length ? mine.marks[i + 1].first : Infinity;
      const html = rows.filter((row) => Number(row.dataset.index) >= mark.first && Number(row.dataset.index) < end)
        .map((row) => row.outerHTML).join('');
      return { id: mark.id, html };
    });
    const complete = table.snapshot().phase === 'complete';
    // Whenever the final batch has arrived, not only at `complete`: a table saved between its last `rows` and
    // `complete` must come back knowing it (events.js sawLast), or it would POST `next` to a session that is ending.
    if (complete || mine.last) batches[batches.length - 1].html += lastBatchMarker;
    return { origin: mine.origin, batches, complete };
  }

  /** @returns {{index: number, top: number} | null} the first row in the window's view (a table's own page) */
  function anchor() {
    if (options.scroller(tables[0]) !== null) return null;
    for (const row of deliveredRows(tables[0].table)) {
      const box = row.getBoundingClientRect();
      if (box.bottom > 0) return { index: Number(row.dataset.index), top: box.top };
    }
    return null;
  }

  /** Writes the place; a refusal (quota, private mode) just keeps nothing. */
  function save() {
    if (!store) return;
    /** @type {Saved} */
    const place = { href: here(), page: stream.position(), tables: {}, anchor: anchor(), boxes: {}, skipped: [] };
    for (const table of tables) {
      const kept = saveTable(table);
      if (kept) place.tables[table.name] = kept; else place.skipped.push(table.name);
      const box = options.scroller(table);
      if (box) place.boxes[table.name] = box.scrollTop;
    }
    const text = JSON.stringify(place);
    try {
      store.setItem(prefix + id, text);
      remember();
    } catch {
      // Over the quota: this tab's other places go first (the one being left is the one Back comes to).
      try {
        forgetOthers();
        store.setItem(prefix + id, text);
        remember();
      } catch {
        try { store.removeItem(prefix + id); } catch { /* nothing kept */ }
      }
    }
  }

  /** Removes every place of this tab but this entry's. */
  function forgetOthers() {
    if (!store) return;
    const list = /** @type {string[]} */ (JSON.parse(store.getItem(prefix + 'list') || '[]'));
    for (const other of list) if (other !== id) store.removeItem(prefix + other);
    store.setItem(prefix + 'list', JSON.stringify([]));
  }

  /** Keeps the list of this tab's places short: the oldest beyond `keptPlaces` are removed. */
  function remember() {
    if (!store) return;
    const list = /** @type {string[]} */ (JSON.parse(store.getItem(prefix + 'list') || '[]')).filter((x) => x !== id);
    list.push(id);
    while (list.length > keptPlaces) store.removeItem(prefix + list.shift());
    store.setItem(prefix + 'list', JSON.stringify(list));
  }

  /** Puts one table's saved rows back through its own event handling (as if its stream sent them again).
   *  @param {Table} table @param {SavedTable} kept */
  function putBack(table, kept) {
    if (kept.origin) table.handle('reset', new MessageEvent('reset', { data: '{}', lastEventId: kept.origin }));
    for (const batch of kept.batches) {
      table.handle('rows', new MessageEvent('rows', { data: batch.html, lastEventId: batch.id }));
    }
    const mine = seen.get(table.name);
    if (mine) {
      mine.origin = kept.origin;
      mine.marks = [];
      for (const batch of kept.batches) mark(mine.marks, batch.id, firstIndex(batch.html));
      mine.last = kept.batches.length > 0 && kept.batches[kept.batches.length - 1].html.endsWith(lastBatchMarker);
    }
  }

  /** @returns {string} */
  function restore() {
    saved = load();
    if (!saved) return '';
    const kept = saved.tables;
    // A page whose tables had all finished would resume to `204` (nothing more): it starts fresh instead.
    if (options.multi && (saved.page === '' || tables.every((table) => kept[table.name] && kept[table.name].complete))) {
      saved = null;
      return '';
    }
    for (const table of tables) {
      if (kept[table.name]) putBack(table, kept[table.name]);
      else if (options.multi) table.startOverOnSession();
    }
    return saved.page;
  }

  /** Puts the scroll back: the same first row at the same offset, each box where it was. */
  function scroll() {
    if (!saved) return;
    for (const table of tables) {
      const box = options.scroller(table);
      if (box && saved.boxes[table.name] !== undefined) box.scrollTop = saved.boxes[table.name];
    }
    const mark = saved.anchor;
    if (!mark) return;
    const row = deliveredRows(tables[0].table).find((r) => Number(r.dataset.index) === mark.index);
    if (row) window.scrollBy(0, row.getBoundingClientRect().top - mark.top);
  }

  /** Follows what each stream delivers: the batches' ids and first rows; a `reset` starts the list over. */
  function track() {
    stream.onEvent((table, type, event) => {
      const mine = seen.get(table.name);
      if (!mine) return;
      if (type === 'session') mine.live = Boolean(JSON.parse(event.data).live);
      if (type === 'reset') { mine.origin = event.lastEventId; mine.marks = []; mine.last = false; }
      if (type === 'rows') mine.last = event.data.endsWith(lastBatchMarker);
      if (type === 'rows' && event.lastEventId) mark(mine.marks, event.lastEventId, firstIndex(event.data));
    });
    for (const table of tables) {
      table.table.addEventListener('rowstream:reset', () => {
        const mine = seen.get(table.name);
        if (mine && table.lastToken() === '') { mine.origin = ''; mine.marks = []; mine.last = false; }
      });
    }
    window.addEventListener('pagehide', save);
    document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden') save(); });
  }

  if (store) {
    window.history.scrollRestoration = 'manual';
    track();
  }
  return { restore: () => (store ? restore() : ''), scroll };
}
