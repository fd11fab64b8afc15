// Rowstream hidden tabs (visibility.js): a tab nobody looks at lets its stream go, so that any number of tabs of one
// server fit in the browser's connections. Over HTTP/1.1 a browser opens at most 6 connections per host for a whole
// profile, and each open EventSource holds one for good: with 6 tabs of tables open, a 7th tab's document would
// never load. So a tab hidden for `grace` ms (config.js `hiddenGrace`) closes its EventSource; shown again it opens
// a new one that resumes with its resume token (docs/PROTOCOL.md, "Resume": no row lost, none twice). A page leaving
// for another document or for the back/forward cache (`pagehide`) lets go at once; one restored from that cache
// (`pageshow` with `persisted`) resumes. A tab that loads hidden (opened in the background) starts its grace at once,
// as one just hidden does. While released the page POSTs no demand (its session ended with the stream).
// Imported by app.js and embed.js (an embedded table lets its stream go with its host tab).
//
// Exports
//   watchVisibility(hooks, grace) -> {isReleased(), stop()}
//     hooks.release()  closes the stream, keeping its position (connection.js release())
//     hooks.resume()   opens it again, resuming there (connection.js resume())
//     grace            ms a hidden tab keeps its stream; negative: never let go on hiding (pagehide still does)
//   stop()             watch no more: the listeners and the grace timer go (an embedded table taken out; its
//                      stream is stopped by its owner)
// Timers and DOM events only, on the page's one thread.
/** @typedef {{release: () => void, resume: () => void}} VisibilityHooks */

/** @param {VisibilityHooks} hooks @param {number} grace */
export function watchVisibility(hooks, grace) {
  let released = false;
  /** @type {number | undefined} the grace timer of a hidden tab */ let timer;

  function stopTimer() {
    clearTimeout(timer);
    timer = undefined;
  }

  function release() {
    stopTimer();
    if (released) return;
    released = true;
    hooks.release();
  }

  function resume() {
    stopTimer();
    if (!released) return;
    released = false;
    hooks.resume();
  }

  /** Hidden: let go after the grace; visible: resume (or keep the stream, if the grace had not run out). */
  function onVisibility() {
    if (document.visibilityState === 'visible') return resume();
    if (grace >= 0 && !released && timer === undefined) timer = window.setTimeout(release, grace);
  }

  /** @param {PageTransitionEvent} event */
  function onPageShow(event) {
    if (event.persisted && document.visibilityState === 'visible') resume();
    else if (event.persisted) onVisibility();
  }

  document.addEventListener('visibilitychange', onVisibility);
  window.addEventListener('pagehide', release);
  window.addEventListener('pageshow', onPageShow);
  // A tab that loads hidden (opened in the background: a middle-click, "open in new tab") gets no
  // `visibilitychange` until first shown: its grace starts now, as if it had just been hidden.
  if (document.visibilityState === 'hidden') onVisibility();
  function stop() {
    stopTimer();
    document.removeEventListener('visibilitychange', onVisibility);
    window.removeEventListener('pagehide', release);
    window.removeEventListener('pageshow', onPageShow);
  }

  return { isReleased: () => released, stop };
}
