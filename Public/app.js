// Rowstream page script, the one module the page loads (`<script type="module" src="/app.js">`): starts one
// controller per table (table.js), its export links (export.js) and the page's one connection (connection.js).
// A table's own page (`#rs-table`) streams that table; a page of several tables (`#rs-page`, one
// `<section class="rs-panel" data-rs-table="NAME">` per table, element ids ending in `--NAME`) streams them all
// over one EventSource, each table in a scroll box of its own (docs/BROWSER.md).
//
// Public surface: the only `window` properties the page reads or writes, all here (the modules share nothing
// through `window`)
//   window.RowstreamConfig        optional object read once at start-up; overrides the defaults (config.js).
//   window.RowstreamHealthConfig  optional object read once at start-up; overrides the watchdog's
//                                 `silenceFactor` (2.5) and `minimumSilence` (3000 ms) (health.js).
//   window.Rowstream              once the script has started:
//                           a table's page: { config, reload(), snapshot(), pruning() }
//                           a page of tables: { config, tables: {NAME: {reload(), snapshot(), pruning()}},
//                                               reload() (every table), snapshot() ({NAME: snapshot}),
//                                               heartbeat() (the server's heartbeat interval, 0 until known) }
//   The events each table dispatches (`rowstream:*`) are listed in table.js.

import { defaults } from './config.js';
import { openStream } from './connection.js';
import { attachExport } from './export.js';
import { mountTable } from './mount.js';
import { stickHeader } from './stickyhead.js';
import { createTable } from './table.js';
import { resumingAfter } from './urls.js';

/**
 * @typedef {import('./config.js').Config} Config
 * @typedef {import('./health.js').HealthConfig} HealthConfig
 * @typedef {import('./table.js').Table} Table
 * @typedef {{reload: () => void, snapshot: Table['snapshot'], pruning: Table['pruning']}} TableHandle
 * @typedef {{RowstreamConfig?: Partial<Config>, RowstreamHealthConfig?: Partial<HealthConfig>,
 *            Rowstream?: object}} Embedder the page's public surface on `window`
 */

const embedder = /** @type {Window & Embedder} */ (window);

/** @type {Config} */
const config = Object.assign({}, defaults, embedder.RowstreamConfig || {});

/** A table's own page: one table (mount.js) scrolling with the window. */
function startTablePage() {
  const { stream, table } = mountTable({ config, health: embedder.RowstreamHealthConfig, root: document,
    scroller: null, base: '' });
  stickHeader(table.table);
  attachExport({ suffix: '', query: table.streamQuery });
  embedder.Rowstream = {
    config, reload: table.reload, pruning: table.pruning,
    snapshot: () => Object.assign(table.snapshot(), { heartbeat: stream.heartbeat() }),
  };
}

/** A page of several tables: one controller per panel, one stream for all.
 *  @param {HTMLElement} page */
function startPage(page) {
  const stream = openStream({
    multi: true,
    health: embedder.RowstreamHealthConfig,
    url: (lastId) => resumingAfter(page.dataset.stream || '', lastId),
  });
  const panels = /** @type {HTMLElement[]} */ (Array.from(page.querySelectorAll('section.rs-panel[data-rs-table]')));
  const tables = panels.map((panel) => {
    const name = panel.dataset.rsTable || '';
    const scroller = document.getElementById('rs-scroll--' + name);
    const table = createTable({ suffix: '--' + name, config, link: stream, multi: true, scroller });
    attachExport({ suffix: '--' + name, query: table.streamQuery });
    return table;
  });
  stream.start(tables);
  /** @type {Record<string, TableHandle>} */ const byName = {};
  for (const table of tables) {
    byName[table.name] = { reload: table.reload, snapshot: table.snapshot, pruning: table.pruning };
  }
  embedder.Rowstream = {
    config, tables: byName,
    reload: () => tables.forEach((table) => table.reload()),
    heartbeat: () => stream.heartbeat(),
    snapshot() {
      /** @type {Record<string, ReturnType<Table['snapshot']>>} */ const all = {};
      for (const table of tables) all[table.name] = table.snapshot();
      return all;
    },
  };
}

const page = document.getElementById('rs-page');
if (page) startPage(page);
else startTablePage();
