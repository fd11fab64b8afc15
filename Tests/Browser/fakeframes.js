// Injected before the page's scripts by the ordering tests (test_demand.py): the test decides when an animation
// frame runs, what each IntersectionObserver reports, and whether the tab is hidden, so every ordering of rows,
// scrolls, observer reports and frames can be played on purpose, in any order, on any machine.
//   window.__frames.run()      runs the animation-frame callbacks queued so far (one frame); returns how many
//   window.__frames.queued()   callbacks waiting for the next frame
//   window.__frames.resizes    window `resize` events so far
//   window.__io.report(selector, isIntersecting)
//                              every observer watching the element at `selector` hears one entry for it;
//                              returns how many observers heard it. Nothing else ever reports: an observer
//                              that "missed" a change is one the test never reports.
//   window.__io.watched(selector)  how many observers watch that element
//   window.__tab.hide() / show()   document.hidden and visibilityState, with a `visibilitychange` event
//   window.__posts             the page's demand POSTs (`next`, `reload`), recorded as they are made (calls: their
//                              URLs). While `holding` (true from the start) each waits, unsent, until release()
//                              sends every one waiting (the batch stays pending as long as the test likes); while
//                              `failing`, each fails at once as a network error would.
(function () {
  let queue = [];
  let nextId = 1;
  window.requestAnimationFrame = (callback) => {
    const id = nextId++;
    queue.push({ id, callback });
    return id;
  };
  window.cancelAnimationFrame = (id) => { queue = queue.filter((entry) => entry.id !== id); };
  window.__frames = {
    run() {
      const now = queue;
      queue = [];
      const t = performance.now();
      for (const entry of now) entry.callback(t);
      return now.length;
    },
    queued: () => queue.length,
    resizes: 0,
  };
  // Registered before the page's own listener: once the test sees the count move, the page has heard it too.
  window.addEventListener('resize', () => { window.__frames.resizes += 1; });

  const observers = [];
  window.IntersectionObserver = class {
    constructor(callback, options) {
      this.callback = callback;
      this.options = options || {};
      this.targets = new Set();
      observers.push(this);
    }
    observe(target) { this.targets.add(target); }
    unobserve(target) { this.targets.delete(target); }
    disconnect() { this.targets.clear(); }
    takeRecords() { return []; }
  };
  window.__io = {
    report(selector, isIntersecting) {
      const target = document.querySelector(selector);
      let heard = 0;
      for (const observer of observers) {
        if (!target || !observer.targets.has(target)) continue;
        const rect = target.getBoundingClientRect();
        observer.callback([{ target, isIntersecting, intersectionRatio: isIntersecting ? 1 : 0,
          boundingClientRect: rect, intersectionRect: rect, rootBounds: null, time: performance.now() }], observer);
        heard += 1;
      }
      return heard;
    },
    watched(selector) {
      const target = document.querySelector(selector);
      return observers.filter((observer) => target && observer.targets.has(target)).length;
    },
  };

  let hidden = false;
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (hidden ? 'hidden' : 'visible') });
  function setHidden(value) {
    hidden = value;
    document.dispatchEvent(new Event('visibilitychange'));
  }
  window.__tab = { hide: () => setHidden(true), show: () => setHidden(false) };

  const posts = { calls: [], holding: true, failing: false, waiting: [] };
  const fetch = window.fetch;
  window.fetch = function (input, init) {
    const url = String((input && input.url) || input);
    if (!(init && init.method === 'POST' && /\/(next|reload)$/.test(url))) return fetch.apply(this, arguments);
    posts.calls.push(url);
    if (posts.failing) return Promise.reject(new TypeError('network error (test)'));
    if (!posts.holding) return fetch.call(window, input, init);
    return new Promise((resolve, reject) => posts.waiting.push(() => fetch.call(window, input, init).then(resolve, reject)));
  };
  posts.release = () => {
    const waiting = posts.waiting;
    posts.waiting = [];
    waiting.forEach((send) => send());
    return waiting.length;
  };
  window.__posts = posts;
})();
