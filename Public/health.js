// Rowstream stream health: a watchdog for a silent event stream, and reconnection when the browser comes
// back online or the tab becomes visible again. Imported by connection.js.
//
// Exports
//   watchHealth(hooks, overrides) -> Watch   (overrides: `silenceFactor`, `minimumSilence`; app.js passes
//                                              window.RowstreamHealthConfig)
//     hooks.isOpen()        whether the EventSource is OPEN
//     hooks.isDone()        whether the stream is over for good (list complete, or closed on purpose)
//     hooks.reconnect(why)  closes the current EventSource and opens a new one that resumes
//     hooks.wake()          optional: after `online` or `visibilitychange` to visible (and any reconnect it caused),
//                           so the tables re-ask demand the network may have failed
//   Watch.heard()           call on every event received (heartbeats included)
//   Watch.setInterval(ms)   the server's heartbeat interval, from its `heartbeat` event
//   Watch.interval()        that interval; 0 until the first heartbeat (the watchdog waits for it)
//   Watch.quiet()           the stream was closed on purpose (released, every table done): the timer is cleared,
//                           so it wakes nothing; heard() arms it again
//   Watch.stop()            the stream is closed for good: the timer is cleared and the `online` and
//                           `visibilitychange` listeners removed (an embedded table taken out of its page keeps none)
//
// Rules: a stream is silent when nothing, not even a heartbeat, arrived for `silenceFactor` heartbeat
// intervals (at least `minimumSilence` ms); then the watchdog reconnects. `online` reconnects a stream that
// is not open; `visibilitychange` (to visible) does the same, and also reconnects an open one that went
// silent while the tab slept; both then wake the tables. Timers only: no polling of the network.
/** @typedef {{isOpen: () => boolean, isDone: () => boolean, reconnect: (why: string) => void,
 *             wake?: () => void}} Hooks
 *  @typedef {{heard: () => void, setInterval: (ms: number) => void, interval: () => number, quiet: () => void,
 *             stop: () => void}} Watch
 *  @typedef {{silenceFactor: number, minimumSilence: number}} HealthConfig */

/** @type {HealthConfig} */
const defaults = {
  /** silence, in heartbeat intervals, after which the stream counts as dead */ silenceFactor: 2.5,
  /** never less than this, in ms */ minimumSilence: 3000,
};

/**
 * @param {Hooks} hooks
 * @param {Partial<HealthConfig>} [overrides]
 * @returns {Watch}
 */
export function watchHealth(hooks, overrides = {}) {
  const options = Object.assign({}, defaults, overrides);
  /** the server's heartbeat interval; 0 until its first `heartbeat` event states it (no watchdog until then) */
  let interval = 0;
  let lastHeard = Date.now();
  /** @type {number | undefined} */ let timer;

  /** @returns {number} the silence in ms that means the stream is dead */
  function silenceLimit() { return Math.max(options.minimumSilence, interval * options.silenceFactor); }

  /** (Re)starts the watchdog's timer, once the interval is known. */
  function arm() {
    clearTimeout(timer);
    if (interval > 0) timer = window.setTimeout(expire, silenceLimit());
  }

  /** The timer ran out: the stream is silent. */
  function expire() {
    if (hooks.isDone()) return;
    heard();
    hooks.reconnect('silent');
  }

  /** Something arrived: the silence starts again. */
  function heard() {
    lastHeard = Date.now();
    arm();
  }

  /** @returns {boolean} */
  function isSilent() { return interval > 0 && Date.now() - lastHeard > interval + 1000; }

  /** @param {string} why */
  function reconnectIfUnhealthy(why) {
    if (hooks.isDone()) return;
    if (!hooks.isOpen() || isSilent()) {
      heard();
      hooks.reconnect(why);
    }
  }

  /** @param {string} why */
  function wake(why) {
    reconnectIfUnhealthy(why);
    if (hooks.wake) hooks.wake();
  }

  function online() { wake('online'); }

  function visibilityChanged() {
    if (document.visibilityState === 'visible') wake('visible');
  }

  window.addEventListener('online', online);
  document.addEventListener('visibilitychange', visibilityChanged);
  return {
    quiet() { clearTimeout(timer); },
    stop() {
      clearTimeout(timer);
      window.removeEventListener('online', online);
      document.removeEventListener('visibilitychange', visibilityChanged);
    },
    heard,
    /** @param {number} ms */
    setInterval(ms) {
      if (ms > 0) interval = ms;
      heard();
    },
    interval: () => interval,
  };
}
