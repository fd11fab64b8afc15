// Rowstream one-table mount (mount.js): a table controller (table.js) on a stream of its own (connection.js), at
// the table's data-stream with the controls' choice and bare cells (view.js gives them their classes), resuming where
// the table is. A table's own page (app.js) and an embedded table (embed.js, `<rowstream-table>`) both start their
// table here.
//
// Exports
//   mountTable(options) -> {stream, table}   (the stream is open once this returns)
//     options.config    the tunables (config.js)
//     options.health    overrides of the watchdog's tunables (health.js), or undefined
//     options.root      where the table's elements are: the document, or the shadow root of an embedded table
//     options.scroller  the element whose scrolling reveals the table; null: the window
//     options.base      '' on the server's own page; an embedded table's server URL (its paths resolve against it)
//     options.urlPrefix optional: the controls' choice lives in the page URL ('' on a table's own page; controls.js)
//     options.prepare   optional: (stream, table) => void, run before the stream opens (history.js restores rows)
import { openStream } from './connection.js';
import { createTable } from './table.js';
import { resumingAfter, withParameter, withQuery } from './urls.js';

/**
 * @typedef {{config: import('./config.js').Config, health: Partial<import('./health.js').HealthConfig> | undefined,
 *            root: Document | ShadowRoot, scroller: HTMLElement | null, base: string, urlPrefix?: string,
 *            prepare?: (stream: import('./connection.js').Stream, table: import('./table.js').Table) => void}}
 *   MountOptions
 * @typedef {{stream: import('./connection.js').Stream, table: import('./table.js').Table}} Mounted
 */

/** @param {MountOptions} options @returns {Mounted} */
export function mountTable(options) {
  const { config, root, scroller, base } = options;
  const stream = openStream({
    multi: false,
    health: options.health,
    withCredentials: config.credentials === 'include',
    url: () => resumingAfter(withQuery(withParameter(table.table.dataset.stream || '', 'cells', 'bare'),
      table.streamQuery()), table.lastToken()),
  });
  const table = createTable({ suffix: '', config, link: stream, multi: false, scroller, root, base,
    urlPrefix: options.urlPrefix });
  if (options.prepare) options.prepare(stream, table);
  stream.start([table]);
  return { stream, table };
}
