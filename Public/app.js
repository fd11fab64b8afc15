// Rowstream page script: streams rows into the server-rendered table over Server-Sent Events.
//
// Public surface
//   window.RowstreamConfig  optional object read once at start-up; overrides the defaults in `config`.
//   window.Rowstream        { config, reload(), snapshot(), pruning() } once the script has started.
//   Needs view.js (required), health.js, prune.js, sections.js and live.js (optional), loaded before it.
//
// Events dispatched on #rs-table (they bubble; `detail` as listed):
//   rowstream:session  {session, table, next, reload}   a (re)connection was accepted
//   rowstream:loading  {offset}                          a batch started loading
//   rowstream:rows     {count, total}                    rows were added (total = rows shown)
//   rowstream:complete {total}                           the list is complete; the stream is closed
//   rowstream:error    {message, retryable, connection}  a batch or the connection failed
//   rowstream:reset    {}                                everything shown was dropped
//   rowstream:live     {kind, count}                     a live change was applied (kind: insert | update | remove)
//   rowstream:reconnect {why}                            a new stream resumes a silent or dead one
//                                                        (why: silent | online | visible)
//
// Attributes kept on #rs-table for tests and embedders:
//   data-state  loading | idle | error | complete
//   data-count  number of rows shown
//   aria-busy   "true" while a batch is pending
'use strict';

(function () {
  /**
   * @typedef {{title: string, field: string, format: string, width?: string}} Column
   * @typedef {{session: string, table: string, title: string, columns: Column[],
   *            batchSize: number, next: string, reload: string}} Session
   * @typedef {'loading' | 'idle' | 'error' | 'complete'} Phase
   * @typedef {{prefetchMargin: number, skeletonRows: number, maxRows: number, pruneMargin: number}} Config
   */

  /** @type {Config} Tunables: pixels below the viewport that trigger a prefetch; skeleton rows per
   *  pending batch (0 = as many as the server rendered at first paint); real rows kept in the DOM at most
   *  (0 = no limit; prune.js replaces batches far from the viewport by spacers and fetches them again);
   *  pixels around the viewport where pruned batches are fetched again (twice that is never pruned). */
  const config = Object.assign({ prefetchMargin: 800, skeletonRows: 0, maxRows: 2000, pruneMargin: 1200 },
    /** @type {any} */ (window).RowstreamConfig || {});

  /** The page's only mutable state; touched only by the functions below. */
  const state = {
    /** @type {EventSource | null} */ source: null,
    /** @type {Session | null} */ session: null,
    /** rows shown; rows whose data-index is below this are dropped */ shown: 0,
    /** rows live updates added (inserts) less rows they removed: the count shown is shown + live */ live: 0,
    /** a batch is in flight (requested by us or loaded by the server on its own) */ pending: true,
    /** @type {Phase} */ phase: 'loading',
    /** the id of the last `rows`/`reset` event: where a new stream resumes */ lastToken: '',
    /** the final batch arrived (its `rows` ended with the marker); ask for nothing more */ sawLast: false,
    /** the stream is over for good: the list is complete, or the connection was refused */ stopped: false,
    /** the controls' choices as stream URL parameters (`p.sort=city`), '' for none */ query: '',
  };

  /** Ends the `rows` data of the final batch (docs/PROTOCOL.md). */
  const lastBatchMarker = '<!--rs:last-->';

  // ---- DOM ---------------------------------------------------------------------------------

  /** @param {string} id @returns {HTMLElement} */
  function byId(id) {
    const element = document.getElementById(id);
    if (!element) throw new Error('rowstream: missing #' + id);
    return element;
  }

  const table = /** @type {HTMLTableElement} */ (byId('rs-table'));
  const rowsBody = byId('rs-rows');
  const sentinel = byId('rs-sentinel');
  /** Skeletons, footer row, count and live region (view.js). */
  const view = /** @type {any} */ (window).RowstreamView.create(table, config.skeletonRows);
  const { formatCount, endText, announce, ensureSkeletons, removeSkeletons, showEndRow, showErrorRow,
    removeErrorRow, parseRows } = view;

  /** Sections (sections.js): one <tbody> per section, with header and footer rows. */
  const sections = /** @type {any} */ (window).RowstreamSections
    ? /** @type {any} */ (window).RowstreamSections.attach({ table, anchor: rowsBody, columns: () => view.columnCount(),
      format: formatCount })
    : { enabled: false, place() { return []; }, insertTop() {}, refreshAll() {}, reset() {} };

  /** Live updates (live.js): keyed insert, update and remove. */
  const live = /** @type {any} */ (window).RowstreamLive
    ? /** @type {any} */ (window).RowstreamLive.attach({ table, rowsBody, sections, parseRows })
    : { insert() { return 0; }, update() { return 0; }, remove() { return 0; }, dropShown() { return 0; } };

  /** Stream health (health.js): watchdog for silence, reconnect on `online` and `visibilitychange`. */
  const health = /** @type {any} */ (window).RowstreamHealth
    ? /** @type {any} */ (window).RowstreamHealth.watch({
      isOpen: () => isStreamOpen(),
      isDone: () => state.stopped || state.source === null,
      reconnect,
    })
    : { heard() {}, setInterval() {}, interval: () => 0 };

  /** The bounded DOM (prune.js): at most config.maxRows real rows; far batches become spacers. */
  const pruner = /** @type {any} */ (window).RowstreamPrune
    ? /** @type {any} */ (window).RowstreamPrune.attach({
      body: rowsBody,
      rowsURL: (table.dataset.stream || '').replace(/\/stream$/, '/rows'),
      // sections, grids and tables with sort or filter controls are not pruned (yet)
      maxRows: sections.enabled || table.dataset.layout === 'grid' || document.getElementById('rs-controls')
        ? 0 : config.maxRows,
      margin: config.pruneMargin,
      parseRows: (/** @type {string} */ html) => parseRows(html),
      columns: () => view.columnCount(),
    })
    : { record() {}, prune() {}, reset() {}, stats() { return null; } };

  // ---- Small helpers -----------------------------------------------------------------------

  /** @param {string} name @param {object} detail */
  function announceEvent(name, detail) {
    table.dispatchEvent(new CustomEvent('rowstream:' + name, { detail, bubbles: true }));
  }

  /** @param {Phase} phase */
  function setPhase(phase) {
    state.phase = phase;
    table.dataset.state = phase;
    table.setAttribute('aria-busy', String(phase === 'loading'));
  }

  /** Shows the number of rows in #rs-count and data-count. */
  function updateCount() {
    const total = Math.max(0, state.shown + state.live);
    view.showCount(total, total > 0 || state.phase === 'complete');
  }

  // ---- Batch states ------------------------------------------------------------------------

  /** A batch is in flight: skeletons, busy, no error row. */
  function beginBatch() {
    state.pending = true;
    removeErrorRow();
    ensureSkeletons(sections.enabled && state.shown === 0);
    setPhase('loading');
  }

  /** Marks the pending batch as finished. */
  function endBatch() { state.pending = false; removeSkeletons(); }

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

  // ---- Demand ------------------------------------------------------------------------------

  /** @returns {boolean} whether the sentinel is within the prefetch margin below the viewport */
  function isSentinelNear() {
    return sentinel.getBoundingClientRect().top <= window.innerHeight + config.prefetchMargin;
  }

  /** @param {number} readyState @returns {boolean} */
  function isStream(readyState) { return state.source !== null && state.source.readyState === readyState; }

  /** @returns {boolean} */
  function isStreamOpen() { return isStream(EventSource.OPEN); }

  /** @returns {boolean} open, idle, with a session, and nothing pending */
  function canRequestMore() { return isStreamOpen() && state.session !== null && !state.pending && state.phase === 'idle'; }

  /** Asks for the next batch when the sentinel is near and nothing is pending. */
  function maybeRequestMore() {
    if (canRequestMore() && isSentinelNear()) requestNext();
  }

  /** POSTs `next`. A failed POST (404: session gone) is left alone: the next `session` event
   *  clears the pending flag and re-evaluates demand. */
  function requestNext() {
    if (!state.session) return;
    beginBatch();
    postTo(state.session.next).catch(() => undefined);
  }

  /** @param {string} url @returns {Promise<Response>} */
  async function postTo(url) {
    const response = await fetch(url, { method: 'POST', credentials: 'same-origin' });
    if (!response.ok) throw new Error('rowstream: POST ' + url + ' -> ' + response.status);
    return response;
  }

  /** Re-evaluates demand whenever the sentinel comes within the prefetch margin. */
  function observeSentinel() {
    const margin = '0px 0px ' + config.prefetchMargin + 'px 0px';
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) maybeRequestMore();
    }, { rootMargin: margin });
    observer.observe(sentinel);
  }

  // ---- SSE event handlers ------------------------------------------------------------------

  /** @param {Event} event @returns {event is MessageEvent<string>} true if from the current source */
  function isCurrent(event) { return event.target === state.source && event instanceof MessageEvent; }

  /** A fresh connection (no Last-Event-ID) makes the server load the first batch by itself.
   *  @param {MessageEvent<string>} event */
  function handleSession(event) {
    state.session = /** @type {Session} */ (JSON.parse(event.data));
    const fresh = event.lastEventId === '' && state.shown === 0;
    state.pending = false;
    if (view.statusText() === 'Reconnecting…') announce('');
    const { session, table: name, next, reload } = state.session;
    announceEvent('session', { session, table: name, next, reload });
    if (fresh) beginBatch();
    else if (state.sawLast) state.pending = true;             // `complete` follows: ask for nothing
    else if (state.phase !== 'error') resumeDemand();
  }

  /** After a reconnect with Last-Event-ID: nothing is pending any more; ask again if needed. */
  function resumeDemand() {
    setPhase('idle');
    maybeRequestMore();
    if (!state.pending) removeSkeletons();
  }

  /** @param {MessageEvent<string>} event */
  function handleLoading(event) {
    const { offset } = JSON.parse(event.data);
    if (state.phase !== 'complete') beginBatch();
    announceEvent('loading', { offset });
  }

  /** Appends rows, dropping any whose data-index was already shown.
   *  @param {MessageEvent<string>} event */
  function handleRows(event) {
    const rows = appendNewRows(parseRows(event.data));
    pruner.record(rows, state.lastToken);
    pruner.prune();
    const added = rows.length;
    endBatch();
    removeErrorRow();
    setPhase('idle');
    updateCount();
    announce('Loaded ' + formatCount(added) + (added === 1 ? ' more row, ' : ' more rows, ')
      + formatCount(state.shown) + ' in total');
    announceEvent('rows', { count: added, total: state.shown });
    // The final batch ends with a marker; `complete` follows. Asking for more in between would POST to a
    // session that is about to end (404).
    state.lastToken = event.lastEventId;
    state.sawLast = event.data.endsWith(lastBatchMarker);
    if (state.sawLast) state.pending = true;
    else maybeRequestMore();
  }

  /** @param {HTMLTableRowElement[]} rows @returns {HTMLTableRowElement[]} the rows appended */
  function appendNewRows(rows) {
    const isNew = (/** @type {HTMLTableRowElement} */ row) => Number(row.dataset.index) >= state.shown;
    state.live -= live.dropShown(rows.filter(isNew));
    const fresh = sections.enabled ? sections.place(rows, isNew) : rows.filter(isNew);
    for (const row of fresh) state.shown = Math.max(state.shown, Number(row.dataset.index) + 1);
    if (!sections.enabled) rowsBody.append(...fresh);
    return fresh;
  }

  /** `insert`, `update`, `remove`: a live table's keyed changes.
   *  @param {'insert' | 'update' | 'remove'} kind @returns {(event: MessageEvent<string>) => void} */
  function handleLive(kind) {
    return (event) => {
      let count = 0;
      if (kind === 'insert') { count = live.insert(event.data); state.live += count; }
      else if (kind === 'update') count = live.update(event.data);
      else { count = live.remove(JSON.parse(event.data).keys || []); state.live -= count; }
      updateCount();
      announceEvent('live', { kind, count });
    };
  }

  /** @param {MessageEvent<string>} event */
  function handleComplete(event) {
    const { total } = JSON.parse(event.data);
    // A live table's stream stays open after `complete`, for its changes.
    const isLive = Boolean(state.session && /** @type {any} */ (state.session).live);
    state.stopped = !isLive;
    if (!isLive) closeStream();
    endBatch();
    setPhase('complete');
    showEndRow(total);
    updateCount();
    announce(endText(total));
    announceEvent('complete', { total });
  }

  /** A server `error` event (with data) or an EventSource connection error (without).
   *  @param {Event} event */
  function handleError(event) {
    if (event.target !== state.source) return;
    if (event instanceof MessageEvent && typeof event.data === 'string') {
      health.heard();
      showBatchError(event);
    }
    else showConnectionError();
  }

  /** @param {MessageEvent<string>} event */
  function showBatchError(event) {
    const { message, retryable } = JSON.parse(event.data);
    endBatch();
    setPhase('error');
    showErrorRow(message, retryable ? retryBatch : null);
    announce(message);
    announceEvent('error', { message, retryable, connection: false });
  }

  /** EventSource reconnects by itself unless it is CLOSED; then it stays stopped. */
  function showConnectionError() {
    if (!isStream(EventSource.CLOSED)) return announce('Reconnecting…');
    const message = 'The connection was closed. Reload to try again.';
    state.stopped = true;
    closeStream();
    endBatch();
    setPhase('error');
    showErrorRow(message, reload);
    announce(message);
    announceEvent('error', { message, retryable: true, connection: true });
  }

  /** The server retries the failed batch when `next` is POSTed again. While EventSource is
   *  reconnecting, show skeletons and let the coming `session` event ask for the batch. */
  function retryBatch() {
    if (isStreamOpen()) requestNext();
    else if (isStream(EventSource.CONNECTING)) beginBatch();
    else reload();
  }

  /** `reset`: everything shown is void; the next rows start at index 0.
   *  @param {MessageEvent<string>} event */
  function handleReset(event) {
    state.lastToken = event.lastEventId;
    state.sawLast = false;
    clearShownRows();
    beginBatch();
    announceEvent('reset', {});
  }

  // ---- Stream lifecycle --------------------------------------------------------------------

  /** @param {(event: MessageEvent<string>) => void} handler @returns {(event: Event) => void} */
  function fromCurrent(handler) {
    return (event) => {
      if (!isCurrent(event)) return;
      health.heard();
      handler(event);
    };
  }

  /** @param {MessageEvent<string>} event `{"interval": ms}`: the server's heartbeat interval. */
  function handleHeartbeat(event) { health.setInterval(Number(JSON.parse(event.data).interval) || 0); }

  /** @returns {string} the stream URL, resuming after `state.lastToken` when there is one (a new
   *  EventSource cannot send Last-Event-ID itself; the server also reads `?lastEventId=`). */
  function streamURL() {
    const stream = table.dataset.stream || '';
    const base = state.query ? stream + (stream.includes('?') ? '&' : '?') + state.query : stream;
    if (!state.lastToken) return base;
    return base + (base.includes('?') ? '&' : '?') + 'lastEventId=' + encodeURIComponent(state.lastToken);
  }

  /** Opens an EventSource (resuming after `state.lastToken`, if any) and wires its events. One per page:
   *  the previous one is always closed first. */
  function openStream() {
    closeStream();
    const source = new EventSource(streamURL());
    state.source = source;
    state.session = null;
    state.stopped = false;
    source.addEventListener('heartbeat', fromCurrent(handleHeartbeat));
    source.addEventListener('session', fromCurrent(handleSession));
    source.addEventListener('loading', fromCurrent(handleLoading));
    source.addEventListener('rows', fromCurrent(handleRows));
    source.addEventListener('complete', fromCurrent(handleComplete));
    source.addEventListener('reset', fromCurrent(handleReset));
    for (const kind of /** @type {const} */ (['insert', 'update', 'remove'])) {
      source.addEventListener(kind, fromCurrent(handleLive(kind)));
    }
    source.addEventListener('error', handleError);
  }

  /** Closes the current EventSource, if any; it never reconnects after this. */
  function closeStream() { if (state.source) state.source.close(); }

  /** The watchdog (health.js) or the browser found the stream dead: resume on a new EventSource.
   *  @param {string} why */
  function reconnect(why) {
    announce('Reconnecting…');
    announceEvent('reconnect', { why });
    openStream();
  }

  /** Starts over on a new EventSource (fresh session, no Last-Event-ID). */
  function restartStream() {
    closeStream();
    state.source = null;
    state.lastToken = '';
    state.sawLast = false;
    clearShownRows();
    beginBatch();
    announceEvent('reset', {});
    openStream();
  }

  /** Reload: POST `reload` while the stream is open (the server answers with `reset`),
   *  otherwise start a new stream. A failed POST falls back to a new stream. */
  function reload() {
    if (!isStreamOpen() || !state.session) return restartStream();
    announce('Reloading…');
    postTo(state.session.reload).catch(restartStream);
  }

  /** @returns {{phase: Phase, shown: number, pending: boolean, session: string | null, heartbeat: number}} */
  function snapshot() {
    const session = state.session ? state.session.session : null;
    return { phase: state.phase, shown: state.shown, pending: state.pending, session, heartbeat: health.interval() };
  }

  /** Sort and filter controls (#rs-controls): a change starts the table over, with skeletons, on a stream for
   *  the new choice. */
  function watchControls() {
    const form = /** @type {HTMLFormElement | null} */ (document.getElementById('rs-controls'));
    if (!form) return;
    form.addEventListener('submit', (event) => event.preventDefault());
    form.addEventListener('change', () => {
      const query = new URLSearchParams();
      for (const select of Array.from(form.querySelectorAll('select'))) {
        if (select.value !== '') query.set(select.name, select.value);
      }
      state.query = query.toString();
      restartStream();
    });
  }

  /** Wires the page once; the first batch comes from the server by itself. */
  function start() {
    ensureSkeletons(sections.enabled);
    setPhase('loading');
    updateCount();
    byId('rs-reload').addEventListener('click', reload);
    observeSentinel();
    watchControls();
    openStream();
    /** @type {any} */ (window).Rowstream = { config, reload, snapshot, pruning: () => pruner.stats() };
  }

  start();
})();
