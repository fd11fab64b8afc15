// Rowstream sticky header for a table's own page: the table scrolls sideways inside its box (`.rs-box`, so the
// document never scrolls sideways), which makes the box the scroller that CSS `position: sticky` would stick the
// header to; the box never scrolls down, so this module keeps the header at the top of the viewport while the
// document scrolls past the table. It moves the `<thead>` by a transform (CSSOM, which the page's CSP allows:
// docs/SECURITY.md): no layout follows, so nothing shifts (CLS). Pages of several tables need none of this:
// each table's scroll box scrolls both ways, and CSS sticks the header to it. An embedded table (embed.js) is the
// same inside its element's scroll box: the header is kept at that box's top. Imported by app.js and embed.js.
//
// Exports
//   stickHeader(table, scroller?) -> stop   keeps `table`'s header in view from now on (nothing for a grid, which
//                        has none, nor for a table outside a `.rs-box`, as on an older custom index.html: CSS
//                        sticks its header): at the viewport's top, or with `scroller` (an embedded table's box) at
//                        that element's top, listening to it only. `stop()` removes what it listens to.

/** How far the header moves down: as far as the table's top is above the viewport's, while the table lasts.
 *  @param {number} top the table's top relative to the viewport @param {number} height the table's height
 *  @param {number} headHeight the header's height @returns {number} the header's shift down, in px */
function headerShift(top, height, headHeight) {
  return Math.max(0, Math.min(-top, height - headHeight));
}

/** @param {HTMLTableElement} table @param {HTMLElement | null} [scroller] the element that scrolls the table
 *  down; null: the document @returns {() => void} stops keeping the header in view */
export function stickHeader(table, scroller = null) {
  const head = table.tHead;
  if (!head || table.classList.contains('rs-grid') || !table.closest('.rs-box')) return () => undefined;
  const thead = head;
  let scheduled = false;
  let shown = 0;

  /** @returns {number} the top of what the table scrolls in, relative to the viewport */
  function viewTop() { return scroller ? scroller.getBoundingClientRect().top + scroller.clientTop : 0; }

  function place() {
    scheduled = false;
    const box = table.getBoundingClientRect();
    const shift = Math.round(headerShift(box.top - viewTop(), box.height, thead.offsetHeight));
    if (shift === shown) return;
    shown = shift;
    thead.style.transform = shift > 0 ? 'translateY(' + shift + 'px)' : '';
  }

  function schedule() {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(place);
  }

  const scrolling = scroller || window;
  scrolling.addEventListener('scroll', schedule, { passive: true });
  if (!scroller) window.addEventListener('resize', schedule, { passive: true });
  const resizes = new ResizeObserver(schedule);
  resizes.observe(table);
  return () => {
    scrolling.removeEventListener('scroll', schedule);
    window.removeEventListener('resize', schedule);
    resizes.disconnect();
  };
}
