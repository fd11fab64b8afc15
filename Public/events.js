// Rowstream table events: what each event of a table's stream does to its table (docs/PROTOCOL.md): `session`,
// `loading`, `rows`, `complete`, `reset`, `error` (a batch failed), `insert`, `update`, `remove` (live changes),
// `total` (the list's size, issue 28).
// Imported by table.js, which owns the table's state.
//
// Exports
//   eventHandlers(t) -> {TYPE: (event: MessageEvent<string>) => void}
//     t: the table's state and parts, from table.js (state, view, sections, live, pruner, rowsBody, multi, and
//        its functions beginBatch, endBatch, setPhase, updateCount, rowTotal, clearShownRows, announceEvent,
//        recheck, retryBatch, reload, cancelDemand, link)
//   Asking for more is demand.js's: setPhase('idle') (a batch ended, a stream resumed) makes it decide again.
//   The status line and the end row count what the viewer has: the batches' rows and the live changes (rowTotal).
//   `loading`, `rows`, `complete`, `reset` and `error` answer the table's demand: its POST is sent no more.
/**
 * @typedef {import('./table.js').Session} Session
 * @typedef {import('./table.js').TableState} TableState
 * @typedef {import('./table.js').Phase} Phase
 * @typedef {import('./table.js').Link} Link
 * @typedef {import('./view.js').View} View
 * @typedef {import('./sections.js').Sections} Sections
 * @typedef {import('./live.js').Live} Live
 * @typedef {import('./prune.js').Pruner} Pruner
 * @typedef {{state: TableState, view: View, sections: Sections, live: Live, pruner: Pruner, rowsBody: HTMLElement,
 *            multi: boolean, link: Link, beginBatch: () => void, endBatch: () => void,
 *            setPhase: (phase: Phase) => void, updateCount: () => void, rowTotal: () => number,
 *            clearShownRows: () => void, announceEvent: (type: string, detail: object) => void,
 *            recheck: () => void, retryBatch: () => void, reload: () => void, cancelDemand: () => void}}
 *   TableParts the table's state and parts (table.js)
 * @typedef {(event: MessageEvent<string>) => void} Handler
 */

/** Ends the `rows` data of the final batch (docs/PROTOCOL.md). */
const lastBatchMarker = '<!--rs:last-->';

/** @param {TableParts} t @returns {Record<string, Handler>} */
export function eventHandlers(t) {
  const { state, view, sections, live, pruner, rowsBody, multi, link } = t;
  const { beginBatch, endBatch, setPhase, updateCount, rowTotal, clearShownRows, announceEvent, recheck,
    retryBatch, reload, cancelDemand } = t;
  const { formatCount, endText, announce, removeSkeletons, showEndRow, showErrorRow, removeErrorRow,
    parseRows } = view;

  /** A fresh start (the server loads the first batch by itself): a new connection without a position on
   *  a table's own page; on a page, a table that has had no `rows` or `reset` yet.
   *  @param {MessageEvent<string>} event */
  function handleSession(event) {
    state.session = /** @type {Session} */ (JSON.parse(event.data));
    state.wasLive = Boolean(state.session.live);
    const fresh = (multi ? state.lastToken === '' : event.lastEventId === '') && state.shown === 0;
    const stalled = state.stalled;
    state.pending = false;
    if (view.statusText() === 'Reconnecting…') announce('');
    const { session, table: tableName, next, reload: reloadURL } = state.session;
    announceEvent('session', { session, table: tableName, next, reload: reloadURL });
    if (state.wantReload) reload();                           // until its `reset` (a voided POST is sent again)
    else if (fresh) beginBatch();
    else if (state.sawLast) state.pending = true;             // `complete` follows: ask for nothing
    else if (stalled) stalled();                              // a demand the network failed: ask the new session
    else if (state.phase !== 'error') resumeDemand();
  }

  /** After a reconnect with a position: nothing is pending any more; idle asks again at the next frame if the end
   *  is near (its skeletons come back before that frame is painted). */
  function resumeDemand() {
    setPhase('idle');
    removeSkeletons();
  }

  /** @param {MessageEvent<string>} event */
  function handleLoading(event) {
    const { offset } = JSON.parse(event.data);
    cancelDemand();
    if (state.phase !== 'complete') beginBatch();
    announceEvent('loading', { offset });
  }

  /** On a page of several tables, a table that wants a reload (a new choice or search, its rows already cleared)
   *  ignores the `rows`, `complete` and `error` that come before that reload's `reset`: they are of the walk the
   *  reload ends (the same stream carries both), and must not show after the new choice's skeletons.
   *  @returns {boolean} */
  function voided() { return multi && state.wantReload; }

  /** Appends rows, dropping any whose data-index was already shown.
   *  @param {MessageEvent<string>} event */
  function handleRows(event) {
    if (voided()) return;
    cancelDemand();
    const rows = appendNewRows(parseRows(event.data));
    pruner.record(rows, state.lastToken);
    pruner.prune();
    const added = rows.length;
    endBatch();
    removeErrorRow();
    setPhase('idle');
    updateCount();
    announce('Loaded ' + formatCount(added) + (added === 1 ? ' more row, ' : ' more rows, ')
      + formatCount(rowTotal()) + ' in total');
    announceEvent('rows', { count: added, total: state.shown });
    // The final batch ends with a marker; `complete` follows. Asking for more in between would POST to a
    // session that is about to end. Otherwise idle asks again at the next frame if the end is still near.
    state.lastToken = event.lastEventId;
    state.sawLast = event.data.endsWith(lastBatchMarker);
    if (state.sawLast) state.pending = true;
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
    if (count > 0) recheck();                                 // rows moved: the end may have come near
    if (count > 0 && kind !== 'update') showLiveTotal(kind, count);
    announceEvent('live', { kind, count });
  }

  /** After live inserts or removes: the status line (and the end row, once complete) with the new total.
   *  @param {'insert' | 'remove'} kind @param {number} count */
  function showLiveTotal(kind, count) {
    const what = kind === 'insert' ? (count === 1 ? ' new row, ' : ' new rows, ')
      : (count === 1 ? ' row removed, ' : ' rows removed, ');
    if (state.phase === 'complete') showEndRow(rowTotal());
    announce(formatCount(count) + what + formatCount(rowTotal()) + ' in total');
  }

  /** @param {MessageEvent<string>} event */
  function handleComplete(event) {
    if (voided()) return;
    const { total } = JSON.parse(event.data);
    cancelDemand();
    // A live table's stream stays open after `complete`, for its changes.
    state.stopped = !isLive();
    endBatch();
    setPhase('complete');
    updateCount();
    showEndRow(rowTotal());
    announce(endText(rowTotal()));
    announceEvent('complete', { total });
    if (state.stopped) link.tableDone();
  }

  /** @returns {boolean} */
  function isLive() { return Boolean(state.session && state.session.live); }

  /** A server `error` event: the batch failed.
   *  @param {MessageEvent<string>} event */
  function handleBatchError(event) {
    if (voided()) return;
    const { message, retryable } = JSON.parse(event.data);
    cancelDemand();
    endBatch();
    setPhase('error');
    showErrorRow(message, retryable ? retryBatch : null);
    announce(message);
    announceEvent('error', { message, retryable, connection: false });
  }

  /** `total`: the list's size as the upstream reported it (docs/PROTOCOL.md); the header then says "150 of 2,500".
   *  @param {MessageEvent<string>} event */
  function handleTotal(event) {
    const { total } = JSON.parse(event.data);
    state.total = typeof total === 'number' && total >= 0 ? total : null;
    updateCount();
  }

  /** `reset`: everything shown is void; the next rows start at index 0.
   *  @param {MessageEvent<string>} event */
  function handleReset(event) {
    cancelDemand();
    state.stopped = false;                                    // a finished table reloaded goes on
    state.wantReload = false;                                 // the reload wanted is done
    state.lastToken = event.lastEventId;
    state.sawLast = false;
    state.total = null;                                       // the new list's `total` follows with its rows
    clearShownRows();
    beginBatch();
    announceEvent('reset', {});
  }

  return {
    session: handleSession, loading: handleLoading, rows: handleRows, complete: handleComplete,
    reset: handleReset, error: handleBatchError, total: handleTotal,
    insert: (/** @type {MessageEvent<string>} */ event) => handleLive('insert', event),
    update: (/** @type {MessageEvent<string>} */ event) => handleLive('update', event),
    remove: (/** @type {MessageEvent<string>} */ event) => handleLive('remove', event),
  };
}
