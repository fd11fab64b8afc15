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
import { keepPlace } from './history.js';
import { createTable } from './table.js';
import { resumingAfter, withParameter } from './urls.js';
import { watchVisibility } from './visibility.js';

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

/** A table's own page: one table (mount.js) scrolling with the window; its controls' choice in the page URL, its
 *  place kept for Back, Forward and Reload (history.js), its stream let go while the tab is hidden (visibility.js). */
function startTablePage() {
  /** @type {{place: ReturnType<typeof keepPlace> | null}} set by `prepare`, before the stream opens */
  const kept = { place: null };
  const { stream, table } = mountTable({ config, health: embedder.RowstreamHealthConfig, root: document,
    scroller: null, base: '', urlPrefix: '',
    prepare: (link, only) => {
      if (!config.restorePlace) return;
      kept.place = keepPlace({ stream: link, tables: [only], scroller: () => null, maxRows: placeRows(),
        multi: false });
      kept.place.restore();
    } });
  watchVisibility({ release: stream.release, resume: stream.resume }, config.hiddenGrace);
  stickHeader(table.table);
  if (kept.place) kept.place.scroll();
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
    url: (lastId) => resumingAfter(withParameter(page.dataset.stream || '', 'cells', 'bare'), lastId),
  });
  const panels = /** @type {HTMLElement[]} */ (Array.from(page.querySelectorAll('section.rs-panel[data-rs-table]')));
  const tables = panels.map((panel) => {
    const name = panel.dataset.rsTable || '';
    const scroller = document.getElementById('rs-scroll--' + name);
    const table = createTable({ suffix: '--' + name, config, link: stream, multi: true, scroller,
      urlPrefix: name + '.' });
    attachExport({ suffix: '--' + name, query: table.streamQuery });
    return table;
  });
  const place = config.restorePlace ? keepPlace({ stream, tables, maxRows: placeRows(), multi: true,
    scroller: (table) => document.getElementById('rs-scroll--' + table.name) }) : null;
  const resumeId = place ? place.restore() : '';
  // A choice from the page URL: the page stream starts every table as configured, so that table asks for it.
  if (!resumeId) tables.filter((table) => table.controls.chosen).forEach((table) => table.startOverOnSession());
  stream.start(tables, resumeId);
  watchVisibility({ release: stream.release, resume: stream.resume }, config.hiddenGrace);
  if (place) place.scroll();
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

/** @returns {number} rows per table that Back and Reload put back at most (history.js) */
function placeRows() { return config.maxRows > 0 ? config.maxRows : 5000; }

const page = document.getElementById('rs-page');
if (page) startPage(page);
else startTablePage();
