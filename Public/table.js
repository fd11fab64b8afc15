// Rowstream table controller: one per table on the page. Paints the server-rendered table's rows, skeletons,
// footer, count and status from its events; asks for more when its end nears; drives its own session (next,
// reload) and its sort and filter controls. It owns no connection: stream.js feeds it the events of its table
// (from the table's own stream, or tagged with its name from a page's shared stream) and app.js wires the two.
//
// Public surface
//   window.RowstreamTable.create(options) -> Table
//     options.suffix    '' on a table's own page; '--NAME' on a page of several tables (element ids end in it)
//     options.config    the tunables of app.js (prefetchMargin, skeletonRows, maxRows, pruneMargin)
//     options.scroller  the element whose scrolling reveals the table (a page's scroll box); null: the window
//     options.link      the connection: isOpen(), isConnecting(), restart() (a fresh stream: the table's own
//                       page only), tableDone() (this table is over for good)
//     options.multi     true on a page of several tables: a control change POSTs `reload` with the choice
//   Table: name, handle(type, event), opened(), connectionClosed(), reconnecting(), cleared(), isStopped(),
//          streamQuery(), lastToken(), reload(), snapshot(), pruning()
//
// Events dispatched on the table element (they bubble; `detail` as listed, each with `table`, the table's name):
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
//   aria-busy   "true" while a batch is pending
'use strict';

(function () {
  /**
   * @typedef {{title: string, field: string, format: string, width?: string}} Column
   * @typedef {{session: string, table: string, title: string, columns: Column[],
   *            batchSize: number, next: string, reload: string}} Session
   * @typedef {'loading' | 'idle' | 'error' | 'complete'} Phase
   * @typedef {{isOpen: () => boolean, isConnecting: () => boolean, restart: () => void, tableDone: () => void}} Link
   */

  /** Ends the `rows` data of the final batch (docs/PROTOCOL.md). */
  const lastBatchMarker = '<!--rs:last-->';

  /** @param {any} options */
  function create(options) {
    const { suffix, config, link, multi } = options;
    /** @type {HTMLElement | null} */ const scroller = options.scroller || null;

    /** @param {string} id @returns {HTMLElement} */
    function byId(id) {
      const element = document.getElementById(id + suffix);
      if (!element) throw new Error('rowstream: missing #' + id + suffix);
      return element;
    }

    /** This table's only mutable state; touched only by the functions below. */
    const state = {
      /** @type {Session | null} */ session: null,
      /** rows shown; rows whose data-index is below this are dropped */ shown: 0,
      /** rows live updates added (inserts) less rows they removed: the count shown is shown + live */ live: 0,
      /** a batch is in flight (requested by us or loaded by the server on its own) */ pending: true,
      /** @type {Phase} */ phase: 'loading',
      /** the id of the last `rows`/`reset` event of this table: where a new stream resumes it */ lastToken: '',
      /** the final batch arrived (its `rows` ended with the marker); ask for nothing more */ sawLast: false,
      /** this table is over for good: its list is complete, or the connection was refused */ stopped: false,
      /** the controls' choices as URL parameters (`p.sort=city`), '' for none */ query: '',
      /** a reload (with the choice) waits for the next session (the stream was not open) */ wantReload: false,
    };

    const table = /** @type {HTMLTableElement} */ (byId('rs-table'));
    const name = table.dataset.table || '';
    const rowsBody = byId('rs-rows');
    const sentinel = byId('rs-sentinel');
    /** Skeletons, footer row, count and live region (view.js). */
    const view = /** @type {any} */ (window).RowstreamView.create(table, config.skeletonRows, suffix);
    const { formatCount, endText, announce, ensureSkeletons, removeSkeletons, showEndRow, showErrorRow,
      removeErrorRow, parseRows } = view;
    const controls = /** @type {HTMLFormElement | null} */ (document.getElementById('rs-controls' + suffix));

    /** Sections (sections.js): one <tbody> per section, with header and footer rows. */
    const sections = /** @type {any} */ (window).RowstreamSections
      ? /** @type {any} */ (window).RowstreamSections.attach({ table, anchor: rowsBody, columns: () => view.columnCount(),
        format: formatCount })
      : { enabled: false, place() { return []; }, insertTop() {}, refreshAll() {}, reset() {} };

    /** Live updates (live.js): keyed insert, update and remove. */
    const live = /** @type {any} */ (window).RowstreamLive
      ? /** @type {any} */ (window).RowstreamLive.attach({ table, rowsBody, sections, parseRows, scroller })
      : { insert() { return 0; }, update() { return 0; }, remove() { return 0; }, dropShown() { return 0; } };

    /** The bounded DOM (prune.js): at most config.maxRows real rows; far batches become spacers. */
    const pruner = /** @type {any} */ (window).RowstreamPrune
      ? /** @type {any} */ (window).RowstreamPrune.attach({
        body: rowsBody,
        rowsURL: (table.dataset.stream || '').replace(/\/stream$/, '/rows'),
        // sections, grids and tables with sort or filter controls are not pruned (yet)
        maxRows: sections.enabled || table.dataset.layout === 'grid' || controls ? 0 : config.maxRows,
        margin: config.pruneMargin,
        parseRows: (/** @type {string} */ html) => parseRows(html),
        columns: () => view.columnCount(),
        scroller,
      })
      : { record() {}, prune() {}, reset() {}, stats() { return null; } };

    // ---- Small helpers ---------------------------------------------------------------------

    /** @param {string} type @param {object} detail */
    function announceEvent(type, detail) {
      table.dispatchEvent(new CustomEvent('rowstream:' + type, { detail: Object.assign({ table: name }, detail),
        bubbles: true }));
    }

    /** @param {Phase} phase */
    function setPhase(phase) {
      state.phase = phase;
      table.dataset.state = phase;
      table.setAttribute('aria-busy', String(phase === 'loading'));
    }

    /** Shows the number of rows in the count and data-count. */
    function updateCount() {
      const total = Math.max(0, state.shown + state.live);
      view.showCount(total, total > 0 || state.phase === 'complete');
    }

    // ---- Batch states ----------------------------------------------------------------------

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

    // ---- Demand ----------------------------------------------------------------------------

    /** @returns {boolean} whether the sentinel is within the prefetch margin below the visible area */
    function isSentinelNear() {
      const bottom = scroller ? scroller.getBoundingClientRect().bottom : window.innerHeight;
      return sentinel.getBoundingClientRect().top <= bottom + config.prefetchMargin;
    }

    /** @returns {boolean} open, idle, with a session, and nothing pending */
    function canRequestMore() { return link.isOpen() && state.session !== null && !state.pending && state.phase === 'idle'; }

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
      }, { root: scroller, rootMargin: margin });
      observer.observe(sentinel);
    }

    // ---- Event handlers --------------------------------------------------------------------

    /** A fresh start (the server loads the first batch by itself): a new connection without a position on
     *  a table's own page; on a page, a table that has had no `rows` or `reset` yet.
     *  @param {MessageEvent<string>} event */
    function handleSession(event) {
      state.session = /** @type {Session} */ (JSON.parse(event.data));
      const fresh = (multi ? state.lastToken === '' : event.lastEventId === '') && state.shown === 0;
      state.pending = false;
      if (view.statusText() === 'Reconnecting…') announce('');
      const { session, table: tableName, next, reload: reloadURL } = state.session;
      announceEvent('session', { session, table: tableName, next, reload: reloadURL });
      if (state.wantReload) { state.wantReload = false; reload(); }
      else if (fresh) beginBatch();
      else if (state.sawLast) state.pending = true;             // `complete` follows: ask for nothing
      else if (state.phase !== 'error') resumeDemand();
    }

    /** After a reconnect with a position: nothing is pending any more; ask again if needed. */
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
     *  @param {'insert' | 'update' | 'remove'} kind @param {MessageEvent<string>} event */
    function handleLive(kind, event) {
      let count = 0;
      if (kind === 'insert') { count = live.insert(event.data); state.live += count; }
      else if (kind === 'update') count = live.update(event.data);
      else { count = live.remove(JSON.parse(event.data).keys || []); state.live -= count; }
      updateCount();
      announceEvent('live', { kind, count });
    }

    /** @param {MessageEvent<string>} event */
    function handleComplete(event) {
      const { total } = JSON.parse(event.data);
      // A live table's stream stays open after `complete`, for its changes.
      state.stopped = !isLive();
      endBatch();
      setPhase('complete');
      showEndRow(total);
      updateCount();
      announce(endText(total));
      announceEvent('complete', { total });
      if (state.stopped) link.tableDone();
    }

    /** @returns {boolean} */
    function isLive() { return Boolean(state.session && /** @type {any} */ (state.session).live); }

    /** A server `error` event: the batch failed. @param {MessageEvent<string>} event */
    function handleBatchError(event) {
      const { message, retryable } = JSON.parse(event.data);
      endBatch();
      setPhase('error');
      showErrorRow(message, retryable ? retryBatch : null);
      announce(message);
      announceEvent('error', { message, retryable, connection: false });
    }

    /** The connection is closed for good (EventSource stopped). */
    function connectionClosed() {
      if (state.stopped) return;
      const message = 'The connection was closed. Reload to try again.';
      state.stopped = true;
      endBatch();
      setPhase('error');
      showErrorRow(message, reload);
      announce(message);
      announceEvent('error', { message, retryable: true, connection: true });
    }

    /** The server retries the failed batch when `next` is POSTed again. While the stream is
     *  reconnecting, show skeletons and let the coming `session` event ask for the batch. */
    function retryBatch() {
      if (link.isOpen()) requestNext();
      else if (link.isConnecting()) beginBatch();
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

    /** @type {Record<string, (event: MessageEvent<string>) => void>} */
    const handlers = {
      session: handleSession, loading: handleLoading, rows: handleRows, complete: handleComplete,
      reset: handleReset, error: handleBatchError,
      insert: (event) => handleLive('insert', event), update: (event) => handleLive('update', event),
      remove: (event) => handleLive('remove', event),
    };

    /** Handles one event of this table. @param {string} type @param {MessageEvent<string>} event */
    function handle(type, event) { if (handlers[type]) handlers[type](event); }

    // ---- Restarts --------------------------------------------------------------------------

    /** A new stream is about to open: the session is gone until its `session` event. */
    function opened() { state.session = null; state.stopped = false; }

    /** The stream starts over from nothing (no position): clear the rows, show skeletons. */
    function cleared() {
      if (scroller) scroller.scrollTop = 0;
      state.lastToken = '';
      state.sawLast = false;
      clearShownRows();
      beginBatch();
      announceEvent('reset', {});
    }

    /** Reload: POST `reload` (with the controls' choice on a page) while the stream is open (the server
     *  answers with `reset`); otherwise start over. A failed POST falls back to starting over. */
    function reload() {
      if (!link.isOpen() || !state.session) return startOver();
      announce('Reloading…');
      const url = multi ? withQuery(state.session.reload, choiceForReload()) : state.session.reload;
      postTo(url).catch(startOver);
    }

    /** A table's own page opens a new stream; a page waits for the table's next session to POST `reload`. */
    function startOver() {
      if (!multi) return link.restart();
      state.wantReload = true;
      cleared();
      if (!link.isOpen() && !link.isConnecting()) link.restart();
    }

    /** @param {string} url @param {string} query @returns {string} */
    function withQuery(url, query) { return query ? url + (url.includes('?') ? '&' : '?') + query : url; }

    /** @returns {string} every control's value, empty ones too (a reload replaces the whole choice) */
    function choiceForReload() {
      if (!controls) return '';
      const query = new URLSearchParams();
      for (const select of Array.from(controls.querySelectorAll('select'))) query.set(select.name, select.value);
      return query.toString();
    }

    /** Sort and filter controls: a change starts this table over, with skeletons. On its own page, on a new
     *  stream for the choice; on a page, by POSTing `reload` with it (the other tables are untouched). */
    function watchControls() {
      if (!controls) return;
      controls.addEventListener('submit', (event) => event.preventDefault());
      controls.addEventListener('change', () => {
        const query = new URLSearchParams();
        for (const select of Array.from(controls.querySelectorAll('select'))) {
          if (select.value !== '') query.set(select.name, select.value);
        }
        state.query = query.toString();
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
      observeSentinel();
      watchControls();
      if (scroller) scroller.addEventListener('scroll', maybeRequestMore, { passive: true });
    }

    start();
    return {
      name, table, handle, opened, cleared, connectionClosed, reload, snapshot,
      reconnecting: () => announce('Reconnecting…'),
      announceReconnect: (/** @type {string} */ why) => announceEvent('reconnect', { why }),
      isStopped: () => state.stopped,
      streamQuery: () => state.query,
      lastToken: () => state.lastToken,
      pruning: () => pruner.stats(),
    };
  }

  /** @type {any} */ (window).RowstreamTable = { create };
})();
