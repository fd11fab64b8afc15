// Rowstream freshness (issue 28, "how fresh"): a live table's visible "Updated 3 s ago" next to its count, ticking
// once a second, set back to "just now" by every live change and batch, and "Reconnecting…" while the stream is
// down. Only for live tables (a `session` with `live`); the screen-reader status line (view.js) still announces
// changes, this text is not a live region (a tick a second would be noise). Imported by table.js.
//
// Exports
//   attachFreshness(options) -> Freshness
//     options.count   the table's count element (#rs-count): the text goes right after it
//     options.id      the element's id (rs-fresh plus the table's suffix)
//   Freshness.updated()   the rows are current as of now (a live change, a batch, a stream (re)opened); starts
//                         showing and ticking on the first call
//   Freshness.down()      the stream is down: "Reconnecting…" until updated()
//   Freshness.stop()      no more ticks (the table is detached)
//   Freshness.text()      what it says now ('' before the first updated())
/** @typedef {{count: HTMLElement, id: string}} FreshnessOptions
 *  @typedef {ReturnType<typeof attachFreshness>} Freshness */

/** @param {number} ms elapsed @returns {string} "Updated just now", "Updated 3 s ago", "Updated 2 min ago", "Updated 1 h ago" */
export function updatedText(ms) {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 1) return 'Updated just now';
  if (seconds < 60) return 'Updated ' + seconds + ' s ago';
  if (seconds < 3600) return 'Updated ' + Math.floor(seconds / 60) + ' min ago';
  return 'Updated ' + Math.floor(seconds / 3600) + ' h ago';
}

/** @param {FreshnessOptions} options */
export function attachFreshness(options) {
  /** @type {HTMLSpanElement | null} */ let element = null;
  /** when the rows were last current (Date.now()), 0: never */ let at = 0;
  /** the stream is down */ let isDown = false;
  /** @type {number | undefined} */ let ticker;

  function paint() {
    if (!element) return;
    element.textContent = isDown ? 'Reconnecting…' : updatedText(Date.now() - at);
    element.classList.toggle('rs-fresh-down', isDown);
  }

  function updated() {
    at = Date.now();
    isDown = false;
    if (!element) {
      element = Object.assign(document.createElement('span'), { id: options.id, className: 'rs-fresh' });
      options.count.after(element);
    }
    element.dataset.updated = String(at);
    if (ticker === undefined) ticker = window.setInterval(paint, 1000);
    paint();
  }

  function down() {
    if (!element) return;
    isDown = true;
    paint();
  }

  function stop() { clearInterval(ticker); ticker = undefined; }

  return { updated, down, stop, text: () => (element ? element.textContent || '' : '') };
}
