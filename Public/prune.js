// Rowstream bounded DOM: keeps at most `maxRows` real rows in the table. Whole batches far from the viewport
// are replaced by one spacer row of exactly their height, so nothing on screen moves; when a spacer comes
// near the viewport again its batch is fetched again (GET {table}/rows?after=TOKEN, docs/PROTOCOL.md) and
// put back in its place. Imported by table.js.
//
// A table with sort, filter or search controls is pruned too: each batch keeps the controls' query its rows were shown
// with (`p.sort=city&p.q=lam`, options.query() when the batch is recorded), and its refill carries it
// (`rows?after=TOKEN&p.q=lam`): a token does not carry the query it was made under, the server checks the `p.*`
// values as the stream's (400 for one outside the config's rules). A start-over (a new choice, a Reload, a `reset`)
// calls reset(): every batch, spacer and pending refill of the old walk is dropped. Each reset begins a new generation:
// a refill's answer is inserted only if the generation it was asked in is still the current one (and the old
// generation's fetches are aborted, its retry timers cleared), so rows of an old query never show after a new one's.
//
// A live table is never pruned: a refill re-reads `rows?after=` from the upstream as it is now and keeps the rows of
// the batch's index range, but after live inserts or removes above, that range holds other rows (a key twice, one
// missing). Dropping refilled keys already shown would hide the duplicates but not bring back the missing ones, so
// only not pruning is correct by construction. A failed refill is tried again with exponential backoff per batch
// (2 s, 4 s, ... at most 60 s, and only while its spacer is near); a 4xx answer (a token the server can no longer
// read) never succeeds: that spacer stays, says so in its text, and is not fetched again.
//
// Exports
//   attachPruner(options) -> Pruner
//     options.rowsURL     the re-fetch route, e.g. /tables/customers/rows
//     options.maxRows     real rows kept at most (0: no limit)
//     options.margin      px around the viewport where spacers are refilled; twice that is never pruned
//     options.parseRows   (html) => HTMLTableRowElement[]
//     options.columns     () => number of columns (for the spacer's colspan)
//     options.scroller    the element that scrolls the table (a page's scroll box); null: the window
//     options.credentials the re-fetch's credentials (config.js)
//     options.onChange    () => void: rows were pruned or restored (the table's end may have moved: demand.js)
//     options.isLive      () => boolean: the table gets live changes (once true, it is never pruned)
//     options.query       () => string: the controls' query the rows being recorded were shown with ('' for none)
//   Pruner.record(rows, before)  a batch was appended: its rows and the resume token before it
//   Pruner.prune()               prunes if over the limit (call after appending, and on scroll)
//   Pruner.reset()               forgets every batch and drops every pending refill (a start-over: new query, reload)
//   Pruner.stats()               {batches, pruned, liveRows, refetched}
/** @typedef {{first: number, count: number, before: string, query: string, generation: number,
 *             rows: HTMLTableRowElement[], spacer: HTMLTableRowElement | null, height: number, fetching: boolean,
 *             failures: number, waiting: boolean, refused: boolean}} Batch
 *  @typedef {{rowsURL: string, maxRows: number, margin: number, parseRows: (html: string) => HTMLTableRowElement[],
 *             columns: () => number, scroller: HTMLElement | null,
 *             credentials: RequestCredentials, onChange: () => void, isLive: () => boolean,
 *             query: () => string}} PruneOptions
 *  @typedef {{batches: number, pruned: number, liveRows: number, refetched: number}} PruneStats
 *  @typedef {ReturnType<typeof attachPruner>} Pruner */

import { withQuery } from './urls.js';

/** ms before a failed refill is tried again: doubled on every failure of that batch, up to retryMaxDelay */
const retryDelay = 2000;
const retryMaxDelay = 60000;

/** @param {PruneOptions} options */
export function attachPruner(options) {
  /** @type {Batch[]} batches in index order */ let batches = [];
  let refetched = 0;
  /** the walk the batches belong to: reset() starts a new one; a refill answer of another is never inserted */
  let generation = 0;
  /** aborts the current generation's refills at reset() */ let aborter = new AbortController();
  /** @type {Set<number>} the current generation's retry timers, cleared at reset() */ const timers = new Set();
  /** the table has been seen live: it is pruned no more */ let live = false;
  const scroller = options.scroller;
  const observer = new IntersectionObserver(onSpacers, { root: scroller, rootMargin: options.margin + 'px 0px' });

  /** @param {HTMLTableRowElement[]} rows @param {string} before */
  function record(rows, before) {
    if (rows.length === 0) return;
    batches.push({ first: Number(rows[0].dataset.index), count: rows.length, before, query: options.query(),
      generation, rows, spacer: null, height: 0, fetching: false, failures: 0, waiting: false, refused: false });
  }

  /** @returns {number} real rows in the DOM */
  function liveRows() { return batches.reduce((n, b) => n + (b.spacer ? 0 : b.count), 0); }

  /** @returns {{top: number, bottom: number}} the visible area: the scroll box's, or the viewport */
  function visible() {
    if (!scroller) return { top: 0, bottom: window.innerHeight };
    const rect = scroller.getBoundingClientRect();
    return { top: rect.top, bottom: rect.bottom };
  }

  /** @param {Batch} batch @returns {number} px between the batch and the visible area (0: overlapping) */
  function distance(batch) {
    const top = batch.rows[0].getBoundingClientRect().top;
    const bottom = batch.rows[batch.rows.length - 1].getBoundingClientRect().bottom;
    const area = visible();
    if (bottom < area.top) return area.top - bottom;
    if (top > area.bottom) return top - area.bottom;
    return 0;
  }

  /** Replaces the live batches farthest from the viewport (beyond the margin) until within the limit. */
  function prune() {
    live = live || options.isLive();
    if (!options.maxRows || live) return;
    let real = liveRows();
    let pruned = false;
    while (real > options.maxRows) {
      const candidates = batches.filter((b) => !b.spacer && distance(b) > 2 * options.margin);
      if (candidates.length === 0) break;
      const farthest = candidates.reduce((a, b) => (distance(b) > distance(a) ? b : a));
      toSpacer(farthest);
      real -= farthest.count;
      pruned = true;
    }
    if (pruned) options.onChange();
  }

  /** @param {Batch} batch */
  function toSpacer(batch) {
    const top = batch.rows[0].getBoundingClientRect().top;
    const height = batch.rows[batch.rows.length - 1].getBoundingClientRect().bottom - top;
    const spacer = document.createElement('tr');
    spacer.className = 'rs-gap';
    spacer.setAttribute('aria-hidden', 'true');
    const cell = document.createElement('td');
    cell.colSpan = options.columns();
    cell.style.height = height + 'px';
    spacer.append(cell);
    batch.rows[0].before(spacer);
    for (const row of batch.rows) row.remove();
    batch.rows = [];
    batch.spacer = spacer;
    batch.height = height;
    observer.observe(spacer);
  }

  /** @param {IntersectionObserverEntry[]} entries */
  function onSpacers(entries) {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      const batch = batches.find((b) => b.spacer === entry.target);
      if (batch && !batch.fetching && !batch.waiting && !batch.refused) refill(batch);
    }
  }

  /** @param {Batch} batch @returns {boolean} the batch belongs to the walk shown now (no start-over since) */
  function current(batch) { return batch.generation === generation && batches.includes(batch); }

  /** Fetches a pruned batch again, under the query its rows were shown with, and puts its rows where its spacer is.
   *  @param {Batch} batch @returns {Promise<void>} */
  async function refill(batch) {
    batch.fetching = true;
    let status = 0;
    try {
      const url = withQuery(options.rowsURL + '?after=' + encodeURIComponent(batch.before), batch.query);
      const response = await fetch(url, { credentials: options.credentials, signal: aborter.signal });
      status = response.status;
      if (!response.ok) throw new Error('rowstream: GET ' + url + ' -> ' + response.status);
      const html = await response.text();
      // Checked when the answer lands: after a start-over it is of an old walk (its query), and never inserted.
      if (!current(batch) || !batch.spacer) return;
      const rows = options.parseRows(html)
        .filter((row) => Number(row.dataset.index) >= batch.first
          && Number(row.dataset.index) < batch.first + batch.count);
      if (rows.length === 0) return;
      observer.unobserve(batch.spacer);
      batch.spacer.replaceWith(...rows);
      batch.spacer = null;
      batch.rows = rows;
      batch.failures = 0;
      refetched += 1;
      options.onChange();
      prune();
    } catch {
      if (!batch.spacer || !current(batch)) return;
      if (status >= 400 && status < 500) return refuse(batch, status);
      const delay = Math.min(retryMaxDelay, retryDelay * 2 ** batch.failures);
      batch.failures += 1;
      batch.waiting = true;
      // Observed again: the observer reports the spacer afresh, and a refill follows only if it is still near.
      const timer = window.setTimeout(() => {
        timers.delete(timer);
        batch.waiting = false;
        if (batch.spacer && current(batch)) { observer.unobserve(batch.spacer); observer.observe(batch.spacer); }
      }, delay);
      timers.add(timer);
    } finally {
      batch.fetching = false;
    }
  }

  /** A 4xx: the server will never give this batch again. Its spacer stays, not observed, and says why (as text).
   *  @param {Batch} batch @param {number} status */
  function refuse(batch, status) {
    if (!batch.spacer) return;
    batch.refused = true;
    observer.unobserve(batch.spacer);
    batch.spacer.classList.add('rs-gap-refused');
    batch.spacer.removeAttribute('aria-hidden');
    const cell = batch.spacer.cells[0];
    if (cell) {
      cell.textContent = batch.count + ' rows could not be loaded again (HTTP ' + status + '): reload the page to see '
        + 'them.';
    }
  }

  /** A start-over: forgets every batch (their spacers go with the rows the table drops), aborts every refill on its
   *  way and clears every retry timer; a new generation begins. */
  function reset() {
    observer.disconnect();
    batches = [];
    generation += 1;
    aborter.abort();
    aborter = new AbortController();
    for (const timer of timers) window.clearTimeout(timer);
    timers.clear();
  }

  /** @returns {PruneStats} */
  function stats() {
    return { batches: batches.length, pruned: batches.filter((b) => b.spacer).length, liveRows: liveRows(),
      refetched };
  }

  let scheduled = false;
  (scroller || window).addEventListener('scroll', () => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(() => { scheduled = false; prune(); });
  }, { passive: true });

  return { record, prune, reset, stats };
}
