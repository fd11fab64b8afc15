// Injected before the page's own scripts: records what the tests assert on and the figures they print.
// Layout shifts (CLS), paint timings, every rowstream:* DOM event, the EventSources the page opens,
// every `heartbeat` event (and the EventSource it came on), every fetch the page starts (logged when it starts,
// synchronously), and the time from each batch's arrival to the next painted frame.
(function () {
  const log = { cls: 0, shifts: [], events: [], sources: [], rowsPainted: [], dialogs: 0, heartbeats: [], fetches: [] };
  window.__rs = log;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      log.cls += entry.value;
      log.shifts.push({ value: entry.value, t: entry.startTime, sources: (entry.sources || []).map((s) => {
        const n = s.node; const what = n ? (n.id || n.nodeName + '.' + (n.className || '')) : '?';
        return what + ' ' + JSON.stringify([s.previousRect.y, s.previousRect.height, s.currentRect.y, s.currentRect.height]);
      }) });
    }
  }).observe({ type: 'layout-shift', buffered: true });
  /** The state a screen reader and a viewer would see at the moment of an event. */
  function snapshot() {
    const table = document.getElementById('rs-table');
    return {
      busy: table ? table.getAttribute('aria-busy') : null,
      status: (document.getElementById('rs-status') || {}).textContent || '',
      shownRows: document.querySelectorAll('#rs-rows tr[data-index]').length,
      skeletons: document.querySelectorAll('#rs-pending tr.rs-skeleton').length,
    };
  }
  for (const name of ['session', 'loading', 'rows', 'complete', 'error', 'reset', 'reconnect']) {
    document.addEventListener('rowstream:' + name, (event) => {
      const t = performance.now();
      log.events.push(Object.assign({ type: name, t }, event.detail, snapshot()));
      if (name === 'rows') {
        requestAnimationFrame(() => setTimeout(() => log.rowsPainted.push(performance.now() - t), 0));
      }
    }, true);
  }
  const NativeEventSource = window.EventSource;
  const open = [];
  /** EventSources not CLOSED right now: the page must never hold more than one. */
  window.__rsOpenSources = () => open.filter((source) => source.readyState !== 2).length;
  window.EventSource = class extends NativeEventSource {
    constructor(url, init) {
      super(url, init);
      const source = log.sources.length;
      log.sources.push({ url: String(url), t: performance.now() });
      open.push(this);
      this.addEventListener('heartbeat', () => log.heartbeats.push({ t: performance.now(), source }));
    }
  };
  const nativeFetch = window.fetch;
  window.fetch = function (input, init) {
    log.fetches.push({ method: (init && init.method) || 'GET', url: String(input && input.url || input), t: performance.now() });
    return nativeFetch.apply(this, arguments);
  };
  for (const name of ['alert', 'confirm', 'prompt']) {
    window[name] = () => { log.dialogs += 1; };
  }
})();
