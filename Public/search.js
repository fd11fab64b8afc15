// Rowstream search (search.js): a table's search box (`<input type="search">` in its controls' form, docs/CONFIG.md
// "search") says when its text changed: typing settles for `settleMs` first (one start-over for a word, not one
// per key); Enter, leaving the box, or clearing it with its own button or Escape say so at once. controls.js
// decides whether the choice is really another one (the same text again starts nothing). Imported by controls.js.
//
// Exports
//   watchSearch(box, changed)   calls changed() when the box's text has settled
//   settleMs                    how long typing must pause (milliseconds)
// DOM and timers only, on the page's one thread.

export const settleMs = 300;

/** @param {HTMLInputElement} box @param {() => void} changed */
export function watchSearch(box, changed) {
  /** @type {number | null} */
  let timer = null;

  function now() {
    if (timer !== null) window.clearTimeout(timer);
    timer = null;
    changed();
  }

  box.addEventListener('input', () => {
    if (timer !== null) window.clearTimeout(timer);
    // Emptied (the box's clear button, Escape, or every character deleted): the full list at once.
    timer = box.value === '' ? null : window.setTimeout(now, settleMs);
    if (box.value === '') changed();
  });
  box.addEventListener('keydown', (event) => { if (event.key === 'Enter') { event.preventDefault(); now(); } });
  box.addEventListener('change', now);
}
