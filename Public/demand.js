// Rowstream demand: tells a table when its end nears, so it asks for its next batch. The end is the table's
// sentinel (an empty element after it); it nears when it comes within `margin` px below the visible area: the
// viewport on a table's own page, the table's scroll box on a page of several tables. Imported by table.js.
//
// Exports
//   watchDemand(options) -> Demand
//     options.sentinel  the element after the table
//     options.scroller  the scroll box, or null for the window
//     options.margin    px below the visible area that count as near
//     options.onNear    called when the sentinel comes near (and on every scroll of a scroll box)
//   Demand.isNear()     whether the sentinel is near now
/** @typedef {{sentinel: HTMLElement, scroller: HTMLElement | null, margin: number, onNear: () => void}} DemandOptions
 *  @typedef {{isNear: () => boolean}} Demand */

/** @param {DemandOptions} options @returns {Demand} */
export function watchDemand(options) {
  const scroller = options.scroller;

  /** @returns {boolean} */
  function isNear() {
    const bottom = scroller ? scroller.getBoundingClientRect().bottom : window.innerHeight;
    return options.sentinel.getBoundingClientRect().top <= bottom + options.margin;
  }

  const observer = new IntersectionObserver((entries) => {
    if (entries.some((entry) => entry.isIntersecting)) options.onNear();
  }, { root: scroller, rootMargin: '0px 0px ' + options.margin + 'px 0px' });
  observer.observe(options.sentinel);
  if (scroller) scroller.addEventListener('scroll', () => options.onNear(), { passive: true });
  return { isNear };
}
