// Rowstream table controller: one per table on the page. Paints the server-rendered table's rows, skeletons,
// footer, count and status from its events; asks for more when its end nears; drives its own session (next,
// reload) and its sort and filter controls. It owns no connection: connection.js feeds it the events of its
// table (from the table's own stream, or tagged with its name from a page's shared stream); app.js wires them.
//
// Exports
//   createTable(options) -> Table
//     options.suffix    '' on a table's own page; '--NAME' on a page of several tables (element ids end in it)
//     options.config    the tunables (config.js: prefetchMargin, skeletonRows, maxRows, pruneMargin, post*)
//     options.scroller  the element whose scrolling reveals the table (a page's scroll box); null: the window
//     options.link      the connection (connection.js): isOpen(), isConnecting(), restart() (a fresh stream: the
//                       table's own page only), reconnect(why) (the stream is dead under a session that ended),
//                       tableDone() (this table is over for good)
//     options.multi     true on a page of several tables: a control change POSTs `reload` with the choice
//     options.root      where the table's elements are: the document (default) or an embedded table's shadow root
//     options.base      the URL the server's paths (session URLs) resolve against: '' (default) for the page's
//                       own; an embedded table's server (embed.js)
//     options.urlPrefix the controls' choice lives in the page URL under this prefix ('' on a table's own page,
//                       'NAME.' on a page); undefined: not in the URL (an embedded table). controls.js
// Imports view.js, events.js, controls.js, columns.js, demand.js, detail.js, post.js, sections.js, live.js, prune.js,
// urls.js and freshness.js.
//   Table: name, handle(type, event), opened(), connectionClosed(), reconnecting(), restarted(), released(), wasLive(),
//          startOverOnSession(), isStopped(), streamQuery(), lastToken(), reload(), reask(), snapshot(), pruning(),
//          controls, recheck() (look again, at the next frame, whether the end is near: call it when something
//          demand.js does not watch may have moved or revealed the table, e.g. a tab or panel shown), detach() (watch
//          the page no more: an embedded table taken out of its page)
//
// Demand POSTs (`next`, `reload`, Retry) go through post.js: a failed or unanswered one is sent again with
// backoff, then the error row offers Retry; reask() (the browser came back online, the tab became visible)
// sends a waiting or failed one at once. Only the latest session's URLs are used: the session is dropped as
// soon as its stream is (a reconnect, by the browser or by us), so nothing is POSTed until the new `session`.
//
// Events dispatched on the table element (they bubble, and are composed: out of an embedded table's shadow root
// they reach the host page from the <rowstream-table> element; `detail` as listed, each with `table`, the table's
// name):
//   rowstream:session  {session, table, next, reload}   a (re)connection was accepted
//   rowstream:loading  {offset}                          a batch started loading
//   rowstream:rows     {count, total}                    rows were added (total = rows shown)
//   rowstream:complete {total}                           the list is complete
//   rowstream:error    {message, retryable, connection}  a batch or the connection failed
//   rowstream:reset    {}                                everything shown was dropped
//   rowstream:live     {kind, count}                     a live change was applied (kind: insert | update | remove)
//   rowstream:reconnect {why}                            a new stream resumes a silent or dead one
//
// Attributes kept on the table element for tests and embedders:
//   data-state  loading | idle | error | complete
//   data-count  number of rows shown
//   data-total  the list's size as the upstream reported it (absent: not reported)
//   aria-busy   "true" while a batch is pending

import { attachColumns } from './columns.js';
import { attachControls } from './controls.js';
import { watchDemand } from './demand.js';
import { attachDetail } from './detail.js';
import { eventHandlers } from './events.js';
import { attachFreshness } from './freshness.js';
import { attachLive } from './live.js';
import { sendPost } from './post.js';
import { attachPruner } from './prune.js';
import { attachSections } from './sections.js';
import { withQuery } from './urls.js';
import { createView } from './view.js';

/**
 * @typedef {import('./config.js').Config} Config
 * @typedef {import('./post.js').Attempts} Attempts
 * @typedef {{title: string, field: string, format: string, width?: string}} Column
 * @typedef {{session: string, table: string, title: string, columns: Column[], batchSize: number,
 *            next: string, reload: string, live?: {interval: number | null, refresh: string}}} Session
 * @typedef {'loading' | 'idle' | 'error' | 'complete'} Phase
 * @typedef {{isOpen: () => boolean, isConnecting: () => boolean, restart: () => void, reconnect: (why: string) => void,
 *            tableDone: () => void}} Link
 * @typedef {{suffix: string, config: Config, link: Link, multi: boolean, scroller: HTMLElement | null,
 *            root?: Document | ShadowRoot, base?: string, urlPrefix?: string}} TableOptions
 * @typedef {{session: Session | null, shown: number, live: number, total: number | null, pending: boolean, phase: Phase,
 *            lastToken: string, sawLast: boolean, stopped: boolean, query: string, wantReload: boolean, wasLive: boolean,
 *            demand: Attempts | null, stalled: (() => void) | null}} TableState
 * @typedef {ReturnType<typeof createTable>} Table
 */

/** The answer to a demand whose session ended: its stream is gone, and the reconnect brings a new session. */
const sessionEnded = 204;

/** @param {TableOptions} options */
export function createTable(options) {
  const { suffix, config, link, multi, scroller } = options;
  const root = options.root || document;
  const base = options.base || '';

  /** @param {string} id @returns {HTMLElement} */
  function byId(id) {
    const element = root.getElementById(id + suffix);
    if (!element) throw new Error('rowstream: missing #' + id + suffix);
    return element;
  }

  /** This table's only mutable state; touched only by the functions below (and events.js's handlers).
   *  @type {TableState} */
  const state = {
    /** the latest `session` event's data; null while the stream it belongs to is gone */ session: null,
    /** rows shown; rows whose data-index is below this are dropped */ shown: 0,
    /** rows live updates added (inserts) less rows they removed: the count shown is shown + live */ live: 0,
    /** the list's size as the upstream reported it (a `total` event), null: not reported */ total: null,
    /** a batch is in flight (requested by us or loaded by the server on its own) */ pending: true,
    /** what the table shows: data-state */ phase: 'loading',
    /** the id of the last `rows`/`reset` event of this table: where a new stream resumes it */ lastToken: '',
    /** the final batch arrived (its `rows` ended with the marker); ask for nothing more */ sawLast: false,
    /** this table is over for good: its list is complete, or the connection was refused */ stopped: false,
    /** the controls' choices as URL parameters (`p.sort=city`), '' for none */ query: '',
    /** a reload (with the choice) is wanted until its `reset` arrives: each new session sends it again (a POST a
     *  reconnect or release voided, a stream that was not open) */ wantReload: false,
    /** a `session` said the table is live; kept while the session is gone (a reconnect cannot resume its changes:
     *  they carry no position) */ wasLive: false,
    /** the demand POST not yet answered (post.js) */ demand: null,
    /** a demand POST that failed for good (the error row shows): sends it again */ stalled: null,
  };

  const table = /** @type {HTMLTableElement} */ (byId('rs-table'));
  const name = table.dataset.table || '';
  const rowsBody = byId('rs-rows');
  /** Asks for the next batch whenever the table's end is near and it can ask (demand.js). */
  const demand = watchDemand({ sentinel: byId('rs-sentinel'), scroller,
    margin: config.prefetchMargin, canAsk: canRequestMore, ask: requestNext });
  /** Skeletons, footer row, count and live region (view.js). */
  const view = createView(table, config.skeletonRows, suffix, root);
  const { formatCount, announce, ensureSkeletons, removeSkeletons, showErrorRow, removeErrorRow, parseRows } = view;
  /** Sort and filter controls (controls.js). */
  const controls = attachControls(
    /** @type {HTMLFormElement | null} */ (root.getElementById('rs-controls' + suffix)), table,
    options.urlPrefix === undefined ? null : options.urlPrefix);
  if (controls.chosen) state.query = controls.query();     // the choice the page's URL carries (controls.js)
  /** Hidden and resized columns, remembered in this browser (columns.js); after the controls' header buttons. */
  const columns = attachColumns({ table, root, suffix, announce });

  /** Sections (sections.js): one <tbody> per section, with header and footer rows. */
  const sections = attachSections({ table, anchor: rowsBody, columns: () => view.columnCount(), format: formatCount });

  /** Row detail, readable cells and row keyboard navigation (detail.js). */
  attachDetail(table, root);

  /** Live updates (live.js): keyed insert, update and remove. */
  const live = attachLive({ table, rowsBody, sections, parseRows, scroller });

  /** The bounded DOM (prune.js): at most config.maxRows real rows; far batches become spacers. */
  const pruner = attachPruner({
    rowsURL: (table.dataset.stream || '').replace(/\/stream$/, '/rows'),
    // sections and grids are not pruned (yet); a table with controls is: each batch is refilled under its query
    maxRows: sections.enabled || table.dataset.layout === 'grid' ? 0 : config.maxRows,
    margin: config.pruneMargin,
    parseRows,
    columns: () => view.columnCount(),
    scroller,
    credentials: config.credentials,
    onChange: demand.recheck, isLive: () => Boolean(state.session && state.session.live),
    query: () => state.query,
  });

  // ---- Small helpers ---------------------------------------------------------------------

  /** @param {string} type @param {object} detail */
  function announceEvent(type, detail) {
    table.dispatchEvent(new CustomEvent('rowstream:' + type, { detail: Object.assign({ table: name }, detail),
      bubbles: true, composed: true }));
  }

  /** Every way of becoming able to ask more passes here: entering `idle` (a batch ended, an error cleared, a
   *  stream resumed) makes demand.js decide again at the next frame.
   *  @param {Phase} phase */
  function setPhase(phase) {
    state.phase = phase;
    table.dataset.state = phase;
    table.setAttribute('aria-busy', String(phase === 'loading'));
    if (phase === 'idle') demand.recheck();
  }

  /** @param {string} path a server path (a session's URL) @returns {string} it, for fetch from this page */
  function serverURL(path) { return base ? new URL(path, base).href : path; }

  /** @returns {number} the rows in the list as the viewer knows it: the batches' rows and the live changes */
  function rowTotal() { return Math.max(0, state.shown + state.live); }

  /** Shows the number of rows in the count and data-count. */
  function updateCount() {
    const total = rowTotal();
    const complete = state.phase === 'complete';
    view.showCount(total, total > 0 || complete, state.total, complete);
    sections.setComplete(complete);
  }

  // ---- Batch states ----------------------------------------------------------------------

  /** A batch is in flight: skeletons, busy, no error row. */
  function beginBatch() {
    state.pending = true;
    state.stalled = null;
    removeErrorRow();
    ensureSkeletons(sections.enabled && state.shown === 0);
    setPhase('loading');
  }

  /** Marks the pending batch as finished. */
  function endBatch() { state.pending = false; state.stalled = null; removeSkeletons(); }

  /** Drops every row shown and the footer. */
  function clearShownRows() {
    rowsBody.replaceChildren();
    sections.reset();
    pruner.reset();
    state.live = 0;
    view.clearFooter();
    state.shown = 0;
    updateCount();
  }

  // ---- Demand ----------------------------------------------------------------------------

  /** demand.js asks (requestNext) only when this holds and the end is near; it decides again whenever the
   *  table may have become able (setPhase('idle'), recheck()).
   *  @returns {boolean} open, idle, with a session, and nothing pending */
  function canRequestMore() { return link.isOpen() && state.session !== null && !state.pending && state.phase === 'idle'; }

  /** POSTs `next` (demand.js when the end is near; Retry). A session that ended (`204`, or `404`: a stream cut
   *  while the POST was on its way) waits for the reconnect's `session` event, which clears the pending flag and
   *  asks again if the end is still near (events.js); when the session is still the current one, the stream is
   *  dead without knowing it, and this reconnects it. A POST the network fails, after its retries, shows the error row. */
  function requestNext() {
    const session = state.session;
    if (!session) return;
    beginBatch();
    sendDemand(serverURL(session.next), () => { if (state.session === session) link.reconnect('ended'); }, retryBatch);
  }

  /** POSTs a demand (post.js) for the current session only; the one before is void.
   *  @param {string} url @param {() => void} onFinal the session ended (`204`, docs/PROTOCOL.md "A session that
   *  ended") or another final answer other than 2xx, such as 404
   *  @param {() => void} again what Retry does when the network failed it
   *  @param {(error: import('./post.js').PostError) => void} [onRefused] a final 4xx other than 404 (the request
   *  itself is wrong: asking again cannot help); default onFinal */
  function sendDemand(url, onFinal, again, onRefused) {
    cancelDemand();
    const session = state.session;
    state.demand = sendPost(url, {
      config,
      isCurrent: () => state.session === session,
      onDone: (response) => {
        state.demand = null;
        if (response.status === sessionEnded) onFinal();
      },
      onFail: (error) => {
        state.demand = null;
        if (error.retryable) demandFailed(again);
        else if (onRefused && error.status >= 400 && error.status < 500 && error.status !== 404) onRefused(error);
        else onFinal();
      },
    });
  }

  /** The demand was answered on the stream (or its session is gone): send it no more. */
  function cancelDemand() {
    if (state.demand) state.demand.cancel();
    state.demand = null;
  }

  /** Every attempt of a demand POST failed: the error row, with Retry.
   *  @param {() => void} again */
  function demandFailed(again) {
    const message = 'The server could not be reached.';
    endBatch();
    setPhase('error');
    state.stalled = again;
    showErrorRow(message, again);
    announce(message);
    announceEvent('error', { message, retryable: true, connection: true });
  }

  /** The browser is back online or the tab visible again: a demand waiting to be sent again goes now; one
   *  that failed for good is sent again (the stream is open: connection.js reconnected it first if needed). */
  function reask() {
    if (state.demand && state.demand.now()) return;
    if (state.stalled && link.isOpen() && state.session) state.stalled();
  }

  /** The stream this table's session lives on is gone (a reconnect): its URLs are void until the next
   *  `session` event, and so is any demand POST for it. */
  function sessionGone() {
    state.session = null;
    cancelDemand();
  }

  /** A hidden tab let the stream go (connection.js release()): its session ends with it.
   *  @returns {boolean} whether this table cannot resume where it is: a live table's changes carry no position, so
   *  the ones sent meanwhile would be missed (connection.js then starts the stream over: the rows as they are now) */
  function released() {
    sessionGone();
    return state.wasLive;
  }

  /** The connection is closed for good (EventSource stopped). */
  function connectionClosed() {
    if (state.stopped) return;
    const message = 'The connection was closed. Reload to try again.';
    streamDown();
    state.stopped = true;
    sessionGone();
    endBatch();
    setPhase('error');
    showErrorRow(message, reload);
    announce(message);
    announceEvent('error', { message, retryable: true, connection: true });
  }

  /** The server retries the failed batch when `next` is POSTed again. While the stream is
   *  reconnecting, show skeletons and let the coming `session` event ask for the batch. */
  function retryBatch() {
    if (link.isOpen() && state.session) requestNext();
    else if (link.isOpen() || link.isConnecting()) beginBatch();
    else reload();
  }

  /** What each event does (events.js). */
  const handlers = eventHandlers({
    state, view, sections, live, pruner, rowsBody, multi, link, beginBatch, endBatch, setPhase, updateCount,
    rowTotal, clearShownRows, announceEvent, recheck: demand.recheck, retryBatch, reload, cancelDemand });

  /** A live table's "Updated 3 s ago" (freshness.js). */
  const freshness = attachFreshness({ count: byId('rs-count'), id: 'rs-fresh' + suffix });

  /** The events after which a live table's rows are current (`fresh`: a refresh found no change). */
  const freshening = new Set(['session', 'rows', 'reset', 'complete', 'insert', 'update', 'remove', 'fresh']);

  /** Handles one event of this table.
   *  @param {string} type @param {MessageEvent<string>} event */
  function handle(type, event) {
    if (handlers[type]) handlers[type](event);
    if (freshening.has(type) && state.session && state.session.live) freshness.updated();
  }

  /** The stream is down (a reconnect is under way, or it was closed): a live table says "Reconnecting…". */
  function streamDown() { if (state.wasLive) freshness.down(); }

  // ---- Restarts --------------------------------------------------------------------------

  /** A new stream is about to open: the session is gone until its `session` event (a live table says
   *  "Reconnecting…" until then). */
  function opened() { sessionGone(); state.stopped = false; streamDown(); }

  /** The stream starts over from nothing (no position): clear the rows, show skeletons. */
  function cleared() {
    if (scroller) scroller.scrollTop = 0;
    state.lastToken = '';
    state.sawLast = false;
    clearShownRows();
    beginBatch();
    announceEvent('reset', {});
  }

  /** The connection starts over from nothing: clear; on a page, a table with a choice asks for it again
   *  once its new session arrives (a fresh page stream starts every table as configured). */
  function restarted() {
    cleared();
    state.wantReload = multi && controls.query() !== '';
  }

  /** Reload: POST `reload` (with the controls' choice on a page) while the stream is open (the server
   *  answers with `reset`); otherwise start over. A failed POST falls back to starting over, a refused one (4xx) shows
   *  the server's message in the error row. Wanted until its
   *  `reset` (wantReload): a POST a reconnect voids is sent again on the next session. The table is not over any
   *  more (stopped): a page's stream must not close when the other tables finish. */
  function reload() {
    state.stopped = false;
    state.wantReload = true;
    if (!link.isOpen() || !state.session) return startOver();
    announce('Reloading…');
    state.pending = true;              // no `next` while it is on its way: until its `reset`, or the error row
    const url = serverURL(multi ? withQuery(state.session.reload, controls.choice()) : state.session.reload);
    sendDemand(url, startOver, reload, reloadRefused);
  }

  /** The server refused the `reload` (400: a search it does not accept): starting over would POST it again on every
   *  new session, with the table on skeletons for good. The error row says why; the table waits for a new choice.
   *  @param {import('./post.js').PostError} error */
  function reloadRefused(error) {
    state.wantReload = false;
    endBatch();
    setPhase('error');
    showErrorRow(error.message, null);
    announce(error.message);
    announceEvent('error', { message: error.message, retryable: false, connection: false });
  }

  /** A table's own page opens a new stream; a page waits for the table's next session to POST `reload`. */
  function startOver() {
    if (!multi) return link.restart();
    state.wantReload = true;
    cleared();
    if (!link.isOpen() && !link.isConnecting()) link.restart();
  }

  /** On a page of several tables, before its stream opens (history.js could not put this table's rows back while
   *  the page stream resumes every table where it was): clear, and start over with a `reload` on its next session. */
  function startOverOnSession() {
    cleared();
    state.wantReload = true;
  }

  /** Sort and filter controls: a change starts this table over, with skeletons. On its own page, on a new
   *  stream for the choice; on a page, by POSTing `reload` with it (the other tables are untouched). */
  function watchControls() {
    controls.onChange(() => {
      state.query = controls.query();
      if (!multi) return link.restart();
      cleared();
      reload();
    });
  }

  /** @returns {{phase: Phase, shown: number, pending: boolean, session: string | null}} */
  function snapshot() {
    const session = state.session ? state.session.session : null;
    return { phase: state.phase, shown: state.shown, pending: state.pending, session };
  }

  /** Wires the table once; the first batch comes from the server by itself. */
  function start() {
    ensureSkeletons(sections.enabled);
    setPhase('loading');
    updateCount();
    byId('rs-reload').addEventListener('click', reload);
    watchControls();
  }

  start();
  return {
    name, table, handle, opened, restarted, released, startOverOnSession, connectionClosed, reload, reask, snapshot,
    controls, recheck: demand.recheck, detach() { demand.stop(); freshness.stop(); columns.stop(); },
    reconnecting() { sessionGone(); announce('Reconnecting…'); streamDown(); },
    announceReconnect: (/** @type {string} */ why) => announceEvent('reconnect', { why }),
    isStopped: () => state.stopped,
    wasLive: () => state.wasLive,
    streamQuery: () => state.query,
    lastToken: () => state.lastToken,
    pruning: () => pruner.stats(),
  };
}
