"""The demand checks of issue 32, written once against engines.py's `Tab`, run in every engine (test_engines.py):
scrolling a table's own page to N rows, none twice, failing at once when the table stalls; and small batches that
must fill the viewport without any scroll. Also `scroll_until`, the other lanes' way to scroll to an outcome.

A stall is observable, not a timeout: the table is idle (nothing pending, `aria-busy` false), its sentinel is
within the page's prefetch margin below the viewport (so the page's own `isNear()` is true), and three rendered
frames later (every scroll event, IntersectionObserver callback and animation frame since has run) it is still
idle with the same rows: nothing asked for the next batch. The failure says where (rows, state, scroll position,
the sentinel) and what an IntersectionObserver of the test's own, with the page's margin, saw."""
import time

from support import TIMEOUT, wait_until

PREFETCH_MARGIN = 800        # Public/config.js defaults.prefetchMargin: "near" is this far below the viewport

# The table's own page as the reader sees it, in one evaluation.
STATE = """
const table = document.getElementById('rs-table');
const sentinel = document.getElementById('rs-sentinel');
const rows = document.querySelectorAll('#rs-rows tr[data-index]');
return { rows: rows.length, last: rows.length ? Number(rows[rows.length - 1].dataset.index) : -1,
  state: table.dataset.state, busy: table.getAttribute('aria-busy'),
  skeletons: document.querySelectorAll('#rs-pending tr.rs-skeleton').length,
  scrollY: Math.round(window.scrollY), scrollHeight: document.documentElement.scrollHeight,
  innerHeight: window.innerHeight, sentinelTop: Math.round(sentinel.getBoundingClientRect().top),
  status: (document.getElementById('rs-status') || {}).textContent || '',
  observed: (window.__laneIO || []).slice(-4) };
"""

INDEXES = "return Array.from(document.querySelectorAll('#rs-rows tr[data-index]'), (r) => Number(r.dataset.index))"

# The test's own IntersectionObserver on the sentinel, with the page's margin: what the page's observer is told.
OBSERVE = """
if (window.__laneIO) return true;
window.__laneIO = [];
new IntersectionObserver((entries) => { for (const e of entries) window.__laneIO.push(
  [e.isIntersecting, Math.round(e.boundingClientRect.top), Math.round(performance.now())]); },
  { rootMargin: '0px 0px ' + arguments[0] + 'px 0px' }).observe(document.getElementById('rs-sentinel'));
return true;
"""

TO_THE_BOTTOM = "window.scrollTo(0, document.documentElement.scrollHeight); return true"


def near_and_idle(state):
    return (state["state"] == "idle" and state["busy"] == "false"
            and state["sentinelTop"] <= state["innerHeight"] + PREFETCH_MARGIN)


def stalled(tab, state):
    """The state after a settled moment; true when it is idle and near and still is, with the same rows, three
    frames later (a demand the page should have made by then)."""
    if not near_and_idle(state):
        return None
    tab.frames(3)
    again = tab.js(STATE)
    return again if near_and_idle(again) and again["rows"] == state["rows"] else None


def describe(engine, what, state):
    return ("%s: %s at %d rows: data-state %s, aria-busy %s, scrollY %d of %d (viewport %d), sentinel top %d "
            "(near: <= %d), status %r, the test's observer saw (intersecting, top, ms) %r" % (
                engine, what, state["rows"], state["state"], state["busy"], state["scrollY"],
                state["scrollHeight"] - state["innerHeight"], state["innerHeight"], state["sentinelTop"],
                state["innerHeight"] + PREFETCH_MARGIN, state["status"], state["observed"]))


READER_PAUSE = 0.5           # seconds between a reader's scrolls (issue 32's reader): the input's cadence, not a wait


def scroll_to_rows(tab, rows, timeout=2 * TIMEOUT):
    """Scrolls the table's page as a reader does: to the bottom, and again every READER_PAUSE seconds, until `rows`
    rows are shown; fails at once on a stall (described), or after `timeout` seconds. Returns the number of
    scrolls. Between scrolls the test asks the page for no frame: a requestAnimationFrame of the test's own makes
    WebKit run a rendering update (and its IntersectionObserver) it would otherwise skip, and hides the stall."""
    tab.js(OBSERVE, PREFETCH_MARGIN)
    scrolls = []

    def step():
        tab.js(TO_THE_BOTTOM)
        scrolls.append(1)
        time.sleep(READER_PAUSE)
        state = tab.js(STATE)
        if state["rows"] >= rows:
            return True
        assert state["state"] != "complete", describe(tab.engine.name, "complete before %d rows" % rows, state)
        stuck = stalled(tab, state)
        assert not stuck, describe(tab.engine.name, "stalled (nothing asked for the next batch)", stuck)
        return False
    wait_until(step, timeout=timeout, interval=0, message="%d rows while scrolling" % rows)
    return len(scrolls)


def assert_every_row_once(tab):
    """The rows shown are data-index 0...n-1, each once, in order; returns n."""
    indexes = tab.js(INDEXES)
    assert indexes == list(range(len(indexes))), "%s: rows missing or twice: %r" % (
        tab.engine.name, [i for n, i in enumerate(indexes) if i != n][:10])
    return len(indexes)


def asked_once_per_batch(tab, batch, nexts):
    """With the window scrolled back to the top (the end out of reach) and the table idle: every row once, in
    order, whole batches, and exactly one `next` POST for every batch after the first (which the server loads by
    itself), none more three frames later. `nexts()` counts the tab's `next` POSTs (a CutProxy in front of the
    server: `lambda: proxy.requests("POST", "/next")`; WebKitGTK keeps no resource timing entry for them). Returns
    the rows shown."""
    tab.js("window.scrollTo(0, 0); return true")
    tab.wait("return document.getElementById('rs-table').dataset.state === 'idle'", message="idle at the top")
    rows = assert_every_row_once(tab)
    assert rows % batch == 0, "%s: a partial batch: %d rows" % (tab.engine.name, rows)
    expected = rows // batch - 1
    wait_until(lambda: nexts() >= expected, message="%d next POSTs" % expected)
    tab.frames(3)
    assert nexts() == expected, "%s: %d next POSTs for %d batches asked for" % (tab.engine.name, nexts(), expected)
    return rows


def fills_without_scrolling(tab, batch):
    """A table with batches smaller than the viewport, not scrolled: it asks batch after batch until its sentinel
    is out of reach (more than the prefetch margin below the viewport), then asks no more; the window never
    scrolled. Returns the rows shown."""
    tab.js(OBSERVE, PREFETCH_MARGIN)

    def full():
        state = tab.js(STATE)
        assert state["scrollY"] == 0, describe(tab.engine.name, "scrolled by itself", state)
        if state["state"] == "idle" and state["sentinelTop"] > state["innerHeight"] + PREFETCH_MARGIN:
            return state
        stuck = stalled(tab, state)
        assert not stuck, describe(tab.engine.name, "stopped asking before the viewport was full", stuck)
        return None
    state = wait_until(full, message="the viewport full of rows, the sentinel out of reach")
    tab.frames(3)
    after = tab.js(STATE)
    assert after["rows"] == state["rows"] and after["state"] == "idle", "asked for more once out of reach"
    assert after["rows"] % batch == 0 and after["scrollY"] == 0, after
    assert_every_row_once(tab)
    return after["rows"]


def scroll_until(tab, done, scroll=TO_THE_BOTTOM, timeout=2 * TIMEOUT, message="scrolling"):
    """Runs the `scroll` script until `done()` is truthy (bounded). For the lanes whose subject is not demand:
    when the table's page is idle with its end near and nothing asked (the stall scroll_to_rows reports), the
    window is scrolled up past the margin and back, so the test goes on to what it proves."""
    def step():
        if done():
            return True
        tab.js(scroll)
        tab.frames(1)
        state = tab.js("return document.getElementById('rs-sentinel') ? (function () {%s})() : null" % STATE)
        if state and near_and_idle(state):
            tab.js("window.scrollBy(0, -(window.innerHeight + 2 * arguments[0])); return true", PREFETCH_MARGIN)
            tab.frames(2)
        return False
    wait_until(step, timeout=timeout, interval=0, message=message)


def stays_where_scrolled(tab, batch):
    """Scrolled to the bottom once, the reader's view stays where it was while the batch that asked for comes
    (its rows take the skeletons' place, in view) and the table then waits, idle: the page does not follow the end
    by itself, batch after batch. Returns the scroll position."""
    tab.wait("return document.getElementById('rs-table').dataset.state === 'idle'", message="idle")
    rows = tab.js(STATE)["rows"]
    scrolled = tab.js("window.scrollTo(0, document.documentElement.scrollHeight); return Math.round(window.scrollY)")
    def arrived():
        now = tab.js(STATE)
        assert now["scrollY"] == scrolled, describe(
            tab.engine.name, "the view moved from scrollY %d by itself (the reader never sees the rows that came)"
            % scrolled, now)
        return now["rows"] >= rows + batch and now["state"] == "idle"
    try:
        wait_until(arrived, message="the batch the scroll asked for")
    except AssertionError as error:
        raise AssertionError(describe(tab.engine.name, "%s (from %d rows, scrollY %d)" % (error, rows, scrolled),
                                      tab.js(STATE))) from None
    tab.frames(3)
    after = tab.js(STATE)
    assert after["scrollY"] == scrolled and after["rows"] == rows + batch, describe(
        tab.engine.name, "the view moved from scrollY %d by itself (the reader never sees the rows that came)"
        % scrolled, after)
    return scrolled
