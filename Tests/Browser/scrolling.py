"""Scrolling proofs any engine can run (issue 32): plain functions over a small driver-neutral interface, so the
Chromium lane (Playwright, test_scrolling.py) and the Firefox and WebKit lanes check the same things the same way.

The interface, two callables the lane provides:
  run_js(expression)  the JSON value of one JavaScript expression evaluated in the page (an expression, not
                      statements; no promises): Playwright `page.evaluate(expression)`, Selenium and Marionette
                      `execute_script("return " + expression)`
  scroll_by(px)       scrolls the window down by px (up when negative) as the reader would: a wheel or
                      `window.scrollBy`; it need not wait for the scroll to finish
What the functions read is the page's DOM and the browser's resource timing only (no instrument.js, no fake), and
every wait is `support.wait_until` (bounded by TIMEOUT). `busy_loops()` is the load both proofs may run under."""
import contextlib
import subprocess
import time

from support import TIMEOUT, stop_process, wait_until

# The table as the reader has it: its state, its rows (their data-index values 0..n-1, each once?), the end's
# distance, the scroll, and the `next` POSTs the browser made (resource timing: one entry per POST answered).
STATE = """(() => {
  const table = document.getElementById('rs-table');
  const rows = Array.from(document.querySelectorAll('#rs-rows tr[data-index]'));
  const indexes = rows.map((row) => Number(row.dataset.index));
  const last = rows[rows.length - 1];
  return {
    state: table.dataset.state,
    busy: table.getAttribute('aria-busy'),
    rows: rows.length,
    inOrderOnce: indexes.every((index, i) => index === i),
    sentinelTop: document.getElementById('rs-sentinel').getBoundingClientRect().top,
    lastRowBottom: last ? last.getBoundingClientRect().bottom : 0,
    viewport: window.innerHeight,
    margin: window.Rowstream.config.prefetchMargin,
    scrollY: window.scrollY,
    nexts: performance.getEntriesByType('resource').filter((e) => /\\/next$/.test(e.name)).length,
  };
})()"""

# The reader's step: the last row scrolled into view (then `scroll_by` 400 px more).
LAST_ROW_INTO_VIEW = """(() => {
  const rows = document.querySelectorAll('#rs-rows tr[data-index]');
  if (rows.length) rows[rows.length - 1].scrollIntoView({ block: 'end' });
  return rows.length;
})()"""


def state(run_js):
    return run_js(STATE)


def out_of_reach(s):
    """Idle, and the end beyond the viewport and its margin: the table can ask nothing until the reader moves."""
    return s["state"] == "idle" and s["sentinelTop"] > s["viewport"] + s["margin"]


def check_asked_once_per_batch(run_js, batch):
    """Every row once and in order; exactly one `next` POST for every batch after the first (which the server
    loads by itself). Waits (bounded) for the last POST's resource entry, then asserts there are no more."""
    s = state(run_js)
    assert s["inOrderOnce"], "a row missing or shown twice: %r" % s
    assert s["rows"] % batch == 0, "a partial batch: %r" % s
    expected = s["rows"] // batch - 1
    wait_until(lambda: state(run_js)["nexts"] >= expected, message="%d next POSTs" % expected)
    s = state(run_js)
    assert s["nexts"] == expected, "%d next POSTs for %d batches asked for: %r" % (s["nexts"], expected, s)
    return s


def fills_the_viewport_without_scrolling(run_js, batch):
    """With batches smaller than the viewport, the table keeps asking, without any scroll, until the viewport is
    full and its end is out of reach; each batch asked once. Returns the final state."""
    s = wait_until(lambda: (lambda s: out_of_reach(s) and s)(state(run_js)),
                   message="the table to fill the viewport and its end to go out of reach, without a scroll")
    assert s["scrollY"] == 0, "the page scrolled: %r" % s
    assert s["rows"] > batch and s["lastRowBottom"] >= s["viewport"], "the viewport is not full: %r" % s
    return check_asked_once_per_batch(run_js, batch)


def scroll_to_rows(run_js, scroll_by, target, batch, pace=0.25):
    """Scrolls as a reader does (the last row into view, then 400 px more, every `pace` seconds) until `target`
    rows are shown; then up a screen or so, until the table is idle with its end out of reach. Every row once,
    in order; one `next` POST per batch. Returns (the final state, seconds to reach `target`)."""
    started = time.monotonic()

    def step():
        if state(run_js)["rows"] >= target:
            return True
        run_js(LAST_ROW_INTO_VIEW)
        scroll_by(400)
        return False
    wait_until(step, timeout=4 * TIMEOUT, interval=pace, message="%d rows while scrolling" % target)
    seconds = time.monotonic() - started

    def settled():
        s = state(run_js)
        if out_of_reach(s):
            return s
        if s["state"] == "idle":
            scroll_by(-1500)
        return None
    wait_until(settled, message="the table idle with its end out of reach")
    s = check_asked_once_per_batch(run_js, batch)
    assert s["rows"] >= target
    return s, seconds


@contextlib.contextmanager
def busy_loops(count=2):
    """`count` busy loops (`yes > /dev/null`), one per core of this machine, for as long as the block runs; each
    stopped by its PID afterwards."""
    loops = []
    try:
        for _ in range(count):
            loops.append(subprocess.Popen(["yes"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        yield [loop.pid for loop in loops]
    finally:
        for loop in loops:
            stop_process(loop)
