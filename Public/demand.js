// Rowstream demand (demand.js): asks for a table's next batch whenever its end is near and the table can ask.
// The end is the table's sentinel (an empty element after it); it is near when it is within `margin` px below the
// visible area: the viewport on a table's own page, the table's scroll box on a page of several tables.
// Imported by table.js.
//
// A table that is not laid out (in a display:none container; its scroll box 0 px high) is never near: every box
// there measures zero. Shown, the observers report and it decides again.
//
// Level-triggered, decided in one place. Nothing here asks on an event: every event only calls recheck(), which
// schedules one decision for the next animation frame (once layout and the reader's scroll have settled; at most
// one frame is ever pending). That decision reads the state as it is then: if the table can ask (canAsk()),
// the document is not hidden and the sentinel is near, it asks (ask()). So a "near" that comes while the table
// cannot ask is not lost: it is read again when the table becomes able, because every way of becoming able calls
// recheck() too. Asking makes the table unable to ask (a batch is pending) before the next decision, so one
// batch is never asked for twice.
//
// What calls recheck():
//   here:      the IntersectionObserver on the sentinel (any report: it only says "look again"); a scroll of the
//              scroll box or of the window (passive); a resize of the window; a resize of the scroll box
//              (ResizeObserver); the document shown again (`visibilitychange` to visible)
//   table.js:  the table became idle (a batch ended, an error cleared, a stream resumed: its `session` arrived),
//              the bounded DOM pruned or restored rows (prune.js), a live change moved rows; and anyone holding
//              the Table (Table.recheck(), e.g. code that shows a tab or a panel)
// No timer: an idle or hidden table costs nothing until one of these happens. A hidden document never asks (the
// browser runs no frames for it anyway); it decides again when shown.
//
// Exports
//   watchDemand(options) -> Demand
//     options.sentinel  the element after the table
//     options.scroller  the scroll box, or null for the window
//     options.margin    px below the visible area that count as near
//     options.canAsk    () => boolean: the table may ask now (open, with a session, idle, nothing pending)
//     options.ask       () => void: asks for the next batch (and makes canAsk() false)
//   Demand.recheck()    decide again at the next animation frame
//   Demand.isNear()     whether the sentinel is near now
//   Demand.stop()       watch no more: the observers and every listener go (an embedded table taken out)
/** @typedef {{sentinel: HTMLElement, scroller: HTMLElement | null, margin: number, canAsk: () => boolean,
 *             ask: () => void}} DemandOptions
 *  @typedef {{recheck: () => void, isNear: () => boolean, stop: () => void}} Demand */

/** @param {DemandOptions} options @returns {Demand} */
export function watchDemand(options) {
  const { sentinel, scroller, margin } = options;
  /** a decision is scheduled for the next animation frame */
  let scheduled = false;
  /** stop() was called */
  let stopped = false;

  /** Never while the table is not laid out (in a display:none container: an inactive tab panel, a closed <details>,
   *  an embed in a hidden view): every box there measures zero, so the end would look near forever and the whole
   *  list would load. Shown again, the IntersectionObserver (and the scroll box's ResizeObserver) ask for a recheck.
   *  @returns {boolean} */
  function isNear() {
    if (sentinel.getClientRects().length === 0 || (scroller && scroller.clientHeight === 0)) return false;
    const bottom = scroller ? scroller.getBoundingClientRect().bottom : window.innerHeight;
    return sentinel.getBoundingClientRect().top <= bottom + margin;
  }

  /** The one place that asks. */
  function decide() {
    scheduled = false;
    if (!stopped && !document.hidden && options.canAsk() && isNear()) options.ask();
  }

  function recheck() {
    if (scheduled || stopped) return;
    scheduled = true;
    requestAnimationFrame(decide);
  }

  function shown() { if (!document.hidden) recheck(); }

  const intersections = new IntersectionObserver(recheck, { root: scroller, rootMargin: '0px 0px ' + margin + 'px 0px' });
  intersections.observe(sentinel);
  const resizes = scroller ? new ResizeObserver(recheck) : null;
  if (resizes && scroller) resizes.observe(scroller);
  (scroller || window).addEventListener('scroll', recheck, { passive: true });
  window.addEventListener('resize', recheck, { passive: true });
  document.addEventListener('visibilitychange', shown);

  function stop() {
    stopped = true;
    intersections.disconnect();
    if (resizes) resizes.disconnect();
    (scroller || window).removeEventListener('scroll', recheck);
    window.removeEventListener('resize', recheck);
    document.removeEventListener('visibilitychange', shown);
  }

  return { recheck, isNear, stop };
}
