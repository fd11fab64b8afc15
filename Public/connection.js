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
//   Stream: start(tables, resumeId?) (the controllers of table.js, one on a table's own page: opens the EventSource;
//           on a page, resuming after resumeId when given), position() (a page stream's last event id),
//           isOpen(), isConnecting(), restart() (from nothing; while released, at resume()), reconnect(why) (a new
//           EventSource that resumes; from nothing when a live table is on it), tableDone(), close(), stop() (closed
//           for good, every table's session dropped: the watchdog and
//           the browser's `online` or visibility never open it again; an embedded table taken out of its page),
//           release() (a hidden tab lets its stream go, keeping its position: visibility.js), resume() (opens it
//           again after release(), resuming there), heartbeat(), onEvent(fn) (fn(table, type, event) after each
//           event a table handled: history.js keeps the batches' tokens)
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
const types = ['session', 'loading', 'rows', 'complete', 'reset', 'error', 'insert', 'update', 'remove', 'fresh',
  'total'];

/** @param {StreamOptions} options */
export function openStream(options) {
  const multi = options.multi;
  /** @type {Table[]} the controllers on this stream; set once, by start() */ let tables = [];
  /** @type {EventSource | null} */ let source = null;
  /** the last event id seen on the page's stream (page mode): where a new stream resumes every table */
  let lastId = '';
  /** stop() was called: nothing opens a stream again */
  let stopped = false;
  /** release() closed the stream on purpose (a hidden tab): resume() opens it again */
  let released = false;
  /** a live table was on the released stream: resume() starts over */
  let stale = false;
  /** the current EventSource opened once: an error on it is a cut (a live table then starts over), not a failed try */
  let sourceOpened = false;
  /** @type {((table: Table, type: string, event: MessageEvent<string>) => void)[]} */ const listeners = [];

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
      for (const listener of listeners) listener(table, type, event);
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
    // The browser resumes by itself with the last id; a live table's changes carry none, so a stream a live
    // table is on starts over instead (every row as it is now, each once). Only after a cut of a stream that had
    // opened: a try that failed is left to the browser's own retry delay.
    if (isState(EventSource.CONNECTING) && sourceOpened && hasLive()) return restart();
    if (!isState(EventSource.CLOSED)) return tables.forEach((table) => table.reconnecting());
    close();
    tables.forEach((table) => table.connectionClosed());
  }

  /** Opens an EventSource (resuming where the tables are) and wires its events; the previous one is closed
   *  first. */
  function connect() {
    if (stopped) return;
    closeSource();
    const next = new EventSource(options.url(lastId), { withCredentials: Boolean(options.withCredentials) });
    source = next;
    sourceOpened = false;
    next.addEventListener('open', () => { if (next === source) sourceOpened = true; });
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

  /** Hands the stream its tables and opens it; on a page, resuming after `resumeId` when given (history.js put
   *  every table back where that id leaves it).
   *  @param {Table[]} controllers @param {string} [resumeId] */
  function start(controllers, resumeId) {
    tables = controllers;
    if (multi && resumeId) lastId = resumeId;
    connect();
  }

  /** @returns {string} the page stream's last event id ('' on a table's own page: its table keeps its token) */
  function position() { return lastId; }

  /** Closes the current EventSource, if any; it never reconnects after this. */
  function closeSource() { if (source) source.close(); }

  /** Closes the stream on purpose (every table done, or the server refused it): the watchdog sleeps too. */
  function close() { closeSource(); health.quiet(); }

  /** @returns {boolean} a live table is on this stream (its changes carry no position) */
  function hasLive() { return tables.some((table) => table.wasLive()); }

  /** The watchdog (health.js), the browser (`online`) or a table (a session that ended under it) found the stream
   *  dead: resume on a new EventSource; from nothing (restart) when a live table is on it. Nothing while released
   *  or stopped.
   *  @param {string} why */
  function reconnect(why) {
    if (stopped || released) return;
    tables.forEach((table) => { table.reconnecting(); table.announceReconnect(why); });
    if (hasLive()) restart(); else connect();
  }

  /** Starts over on a new EventSource, from nothing (no position): every table clears its rows. While released
   *  (a hidden tab) it only marks the stream stale: resume() starts it over. */
  function restart() {
    if (stopped) return;
    if (released) { stale = true; return; }
    closeSource();
    source = null;
    lastId = '';
    tables.forEach((table) => table.restarted());
    connect();
  }

  /** Closes the stream for good. */
  function stop() {
    stopped = true;
    closeSource();
    health.stop();
    tables.forEach((table) => table.released());             // no session: a POST answered later starts nothing
  }

  /** A hidden tab lets its stream go (visibility.js): closed, its position kept; the watchdog and `online` leave
   *  it alone (isDone) and no table POSTs demand (not open) until resume(). Nothing to do for a stream that is
   *  over for good. */
  function release() {
    if (released || isDone()) return;
    released = true;
    close();
    source = null;
    stale = tables.map((table) => table.released()).some(Boolean);
  }

  /** Opens the stream again after release(), resuming where every table is; from nothing (restart) when a live
   *  table was on it, since the changes sent meanwhile carry no position: every row as it is now, each once. */
  function resume() {
    if (!released) return;
    released = false;
    if (stopped) return;
    const startOver = stale;
    stale = false;
    if (startOver) restart(); else connect();
  }

  /** A table is over for good (complete, not live): once all are, the stream is closed. */
  function tableDone() { if (tables.every((table) => table.isStopped())) close(); }

  return { start, isOpen, isConnecting, restart, reconnect, tableDone, close, stop, release, resume, position,
    heartbeat: () => health.interval(),
    /** @param {(table: Table, type: string, event: MessageEvent<string>) => void} listener */
    onEvent: (listener) => { listeners.push(listener); } };
}
