// Rowstream page script: starts one controller per table (table.js) and the page's one connection
// (connection.js).
// A table's own page (`#rs-table`) streams that table; a page of several tables (`#rs-page`, one
// `<section class="rs-panel" data-rs-table="NAME">` per table, element ids ending in `--NAME`) streams them all
// over one EventSource, each table in a scroll box of its own (docs/BROWSER.md).
//
// Public surface
//   window.RowstreamConfig  optional object read once at start-up; overrides the defaults in `config`.
//   window.Rowstream        once the script has started:
//                           a table's page: { config, reload(), snapshot(), pruning() }
//                           a page of tables: { config, tables: {NAME: {reload(), snapshot(), pruning()}},
//                                               reload() (every table), snapshot() ({NAME: snapshot}),
//                                               heartbeat() (the server's heartbeat interval, 0 until known) }
//   Needs view.js, table.js and connection.js (and what they need), loaded before it. The events each table
//   dispatches are listed in table.js.
'use strict';

(function () {
  /** @typedef {{prefetchMargin: number, skeletonRows: number, maxRows: number, pruneMargin: number,
   *             postTimeout: number, postAttempts: number, postBackoff: number, postBackoffCap: number}} Config */

  /** @type {Config} Tunables: pixels below the visible area that trigger a prefetch; skeleton rows per
   *  pending batch (0 = as many as the server rendered at first paint); real rows kept in the DOM at most
   *  per table (0 = no limit; prune.js replaces batches far from view by spacers and fetches them again);
   *  pixels around the visible area where pruned batches are fetched again (twice that is never pruned);
   *  demand POSTs (post.js): ms without an answer before one is aborted, attempts in all, the backoff's base
   *  and cap in ms (each wait is random, up to base × 2^retry, at most the cap). */
  const config = Object.assign({ prefetchMargin: 800, skeletonRows: 0, maxRows: 2000, pruneMargin: 1200,
    postTimeout: 10000, postAttempts: 6, postBackoff: 500, postBackoffCap: 8000 },
  /** @type {any} */ (window).RowstreamConfig || {});

  const w = /** @type {any} */ (window);

  /** @param {string} url @param {string} name @param {string} value @returns {string} */
  function withParameter(url, name, value) {
    return url + (url.includes('?') ? '&' : '?') + name + '=' + encodeURIComponent(value);
  }

  /** A table's own page: one controller, its stream at the table's data-stream, with the controls' choice. */
  function startTablePage() {
    /** @type {any} */ let stream = null;
    const link = {
      isOpen: () => stream.isOpen(), isConnecting: () => stream.isConnecting(),
      restart: () => stream.restart(), tableDone: () => stream.tableDone(),
    };
    const table = w.RowstreamTable.create({ suffix: '', config, link, multi: false, scroller: null });
    stream = w.RowstreamStream.open({
      tables: [table],
      url() {
        const base = table.table.dataset.stream || '';
        const query = table.streamQuery();
        const url = query ? base + (base.includes('?') ? '&' : '?') + query : base;
        return table.lastToken() ? withParameter(url, 'lastEventId', table.lastToken()) : url;
      },
    });
    stream.connect();
    w.Rowstream = {
      config, reload: table.reload, pruning: table.pruning,
      snapshot: () => Object.assign(table.snapshot(), { heartbeat: stream.heartbeat() }),
    };
  }

  /** A page of several tables: one controller per panel, one stream for all. @param {HTMLElement} page */
  function startPage(page) {
    /** @type {any} */ let stream = null;
    const link = {
      isOpen: () => stream.isOpen(), isConnecting: () => stream.isConnecting(),
      restart: () => stream.restart(), tableDone: () => stream.tableDone(),
    };
    const tables = Array.from(page.querySelectorAll('section.rs-panel[data-rs-table]')).map((panel) => {
      const name = /** @type {HTMLElement} */ (panel).dataset.rsTable || '';
      const scroller = document.getElementById('rs-scroll--' + name);
      return w.RowstreamTable.create({ suffix: '--' + name, config, link, multi: true, scroller });
    });
    stream = w.RowstreamStream.open({
      tables, multi: true,
      url: (/** @type {string} */ lastId) => {
        const base = page.dataset.stream || '';
        return lastId ? withParameter(base, 'lastEventId', lastId) : base;
      },
    });
    stream.connect();
    /** @type {Record<string, any>} */ const byName = {};
    for (const table of tables) {
      byName[table.name] = { reload: table.reload, snapshot: table.snapshot, pruning: table.pruning };
    }
    w.Rowstream = {
      config, tables: byName,
      reload: () => tables.forEach((table) => table.reload()),
      heartbeat: () => stream.heartbeat(),
      snapshot() {
        /** @type {Record<string, any>} */ const all = {};
        for (const table of tables) all[table.name] = table.snapshot();
        return all;
      },
    };
  }

  const page = document.getElementById('rs-page');
  if (page) startPage(page);
  else startTablePage();
})();
