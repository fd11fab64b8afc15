// Rowstream connection (connection.js): the page's one EventSource, shared by every table on it. On a table's own page it
// carries that table's events as they are (`rows`, ...); on a page of several tables (docs/PROTOCOL.md, "Pages")
// every event's type names its table (`orders:rows`) and the dispatcher hands it to that table's controller
// (table.js). It owns the stream health watchdog (health.js) and reconnection; it never holds more than one
// EventSource. Imported by app.js; imports health.js.
//
// Exports
//   openStream(options) -> Stream
//     options.multi   true on a page of several tables (tagged events, one resume id for all)
//     options.url     (lastId) => the stream URL to open, resuming after lastId when it is not ''
//     options.health  overrides of the watchdog's tunables (health.js)
//     options.withCredentials  the EventSource sends cookies to another origin (an embedded table, docs/EMBED.md)
//   Stream: start(tables) (the controllers of table.js, one on a table's own page: opens the EventSource),
//           isOpen(), isConnecting(), restart(), tableDone(), close(), stop() (closed for good: the watchdog and
//           the browser's `online` or visibility never open it again; an embedded table taken out of its page),
//           heartbeat()
//   A Stream is the `link` each table is made with (table.js), so it exists before its tables; start() hands
//   it the tables once they do.

import { watchHealth } from './health.js';

/**
 * @typedef {import('./table.js').Table} Table
 * @typedef {{multi: boolean, url: (lastId: string) => string, health?: Partial<import('./health.js').HealthConfig>,
 *   withCredentials?: boolean}}
 *   StreamOptions
 * @typedef {ReturnType<typeof openStream>} Stream
 */

/** The event types of one table (docs/PROTOCOL.md). */
const types = ['session', 'loading', 'rows', 'complete', 'reset', 'error', 'insert', 'update', 'remove'];

/** @param {StreamOptions} options */
export function openStream(options) {
  const multi = options.multi;
  /** @type {Table[]} the controllers on this stream; set once, by start() */ let tables = [];
  /** @type {EventSource | null} */ let source = null;
  /** the last event id seen on the page's stream (page mode): where a new stream resumes every table */
  let lastId = '';
  /** stop() was called: nothing opens a stream again */
  let stopped = false;

  /** Stream health (health.js): watchdog for silence, reconnect on `online` and `visibilitychange`. */
  const health = watchHealth({ isOpen, isDone, reconnect, wake: () => tables.forEach((table) => table.reask()) },
    options.health);

  /** @param {number} readyState @returns {boolean} */
  function isState(readyState) { return source !== null && source.readyState === readyState; }

  /** @returns {boolean} */
  function isOpen() { return isState(EventSource.OPEN); }

  /** @returns {boolean} */
  function isConnecting() { return isState(EventSource.CONNECTING); }

  /** @returns {boolean} the stream is over for good: every table stopped, or closed on purpose */
  function isDone() { return stopped || source === null || tables.every((table) => table.isStopped()); }

  /** @param {Table} table @param {string} type @returns {(event: Event) => void} */
  function deliver(table, type) {
    return (event) => {
      if (event.target !== source || !(event instanceof MessageEvent)) return;
      health.heard();
      if (multi && event.lastEventId) lastId = event.lastEventId;
      table.handle(type, event);
    };
  }

  /** @param {Event} event */
  function handleHeartbeat(event) {
    if (event.target !== source || !(event instanceof MessageEvent)) return;
    health.setInterval(Number(JSON.parse(event.data).interval) || 0);
  }

  /** EventSource's own `error` (and, on a table's own page, the server's `error` event with data). EventSource
   *  reconnects by itself unless it is CLOSED; then every table stops.
   *  @param {Event} event */
  function handleError(event) {
    if (event.target !== source) return;
    if (!multi && event instanceof MessageEvent && typeof event.data === 'string') {
      health.heard();
      return tables[0].handle('error', event);
    }
    if (!isState(EventSource.CLOSED)) return tables.forEach((table) => table.reconnecting());
    close();
    tables.forEach((table) => table.connectionClosed());
  }

  /** Opens an EventSource (resuming where the tables are) and wires its events; the previous one is closed
   *  first. */
  function connect() {
    close();
    const next = new EventSource(options.url(lastId), { withCredentials: Boolean(options.withCredentials) });
    source = next;
    tables.forEach((table) => table.opened());
    next.addEventListener('heartbeat', handleHeartbeat);
    for (const table of tables) {
      for (const type of types) {
        if (!multi && type === 'error') continue;
        next.addEventListener(multi ? table.name + ':' + type : type, deliver(table, type));
      }
    }
    next.addEventListener('error', handleError);
  }

  /** Hands the stream its tables and opens it.
   *  @param {Table[]} controllers */
  function start(controllers) {
    tables = controllers;
    connect();
  }

  /** Closes the current EventSource, if any; it never reconnects after this. */
  function close() { if (source) source.close(); }

  /** The watchdog (health.js) or the browser found the stream dead: resume on a new EventSource.
   *  @param {string} why */
  function reconnect(why) {
    tables.forEach((table) => { table.reconnecting(); table.announceReconnect(why); });
    connect();
  }

  /** Starts over on a new EventSource, from nothing (no position): every table clears its rows. */
  function restart() {
    close();
    source = null;
    lastId = '';
    tables.forEach((table) => table.restarted());
    connect();
  }

  /** Closes the stream for good. */
  function stop() { stopped = true; close(); health.stop(); }

  /** A table is over for good (complete, not live): once all are, the stream is closed. */
  function tableDone() { if (tables.every((table) => table.isStopped())) close(); }

  return { start, isOpen, isConnecting, restart, tableDone, close, stop, heartbeat: () => health.interval() };
}
